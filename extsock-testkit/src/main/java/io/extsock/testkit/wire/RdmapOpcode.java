package io.extsock.testkit.wire;

/**
 * The RDMAP opcodes (RFC 5040 section 4.1; 8 to 11 from RFC 7306), with the buffer model and
 * queue each must use. An opcode that neither RFC defines decodes as {@link #RESERVED}.
 */
public enum RdmapOpcode {
    WRITE(0, "Write", true, -1),
    READ_REQUEST(1, "ReadReq", false, 1),
    READ_RESPONSE(2, "ReadResp", true, -1),
    SEND(3, "Send", false, 0),
    SEND_WITH_INVALIDATE(4, "SendInv", false, 0),
    SEND_WITH_SOLICITED_EVENT(5, "SendSE", false, 0),
    SEND_WITH_SOLICITED_EVENT_AND_INVALIDATE(6, "SendSEInv", false, 0),
    TERMINATE(7, "Terminate", false, 2),
    IMMEDIATE_DATA(8, "ImmData(7306)", false, -1),
    IMMEDIATE_DATA_WITH_SOLICITED_EVENT(9, "ImmDataSE(7306)", false, -1),
    ATOMIC_REQUEST(10, "AtomicReq(7306)", false, -1),
    ATOMIC_RESPONSE(11, "AtomicResp(7306)", false, -1),
    RESERVED(-1, "Reserved", false, -1);

    private final int code;
    private final String shortName;
    private final boolean tagged;
    private final int queue;

    RdmapOpcode(int code, String shortName, boolean tagged, int queue) {
        this.code = code;
        this.shortName = shortName;
        this.tagged = tagged;
        this.queue = queue;
    }

    public static RdmapOpcode of(int code) {
        for (RdmapOpcode opcode : values()) {
            if (opcode.code == code) {
                return opcode;
            }
        }
        return RESERVED;
    }

    public String shortName() {
        return shortName;
    }

    /** RFC 5040 defines it; RFC 7306's extensions are not part of what this project speaks. */
    public boolean inRfc5040() {
        return code >= 0 && code <= 7;
    }

    /** Write and Read Response travel in the tagged model; everything else of RFC 5040 untagged. */
    public boolean tagged() {
        return tagged;
    }

    /** The untagged queue RFC 5040 puts it on (Send family 0, Read Request 1, Terminate 2), or -1. */
    public int queue() {
        return queue;
    }

    public boolean isSend() {
        return queue == 0;
    }
}
