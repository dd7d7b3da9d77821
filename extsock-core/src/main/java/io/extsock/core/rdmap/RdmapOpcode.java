package io.extsock.core.rdmap;

import static io.extsock.core.ddp.DdpConstants.QN_READ_REQUEST;
import static io.extsock.core.ddp.DdpConstants.QN_SEND;
import static io.extsock.core.ddp.DdpConstants.QN_TERMINATE;

/**
 * The RDMAP message opcodes of the IANA "RDMAP Message Operation Codes" registry, with the DDP
 * fields each must travel in: RFC 5040 section 4.1 Figure 4 for 0x0 to 0x7, RFC 7306 section
 * 4.1 Figure 2 for 0x8 to 0xB. 0xC to 0xE are unassigned and 0xF is reserved for experiments
 * (RFC 6580 section 3.4); {@link #fromWire} answers null for them.
 *
 * <p>The RFC 7306 extensions are recognized but not supported: we answer them with a Terminate
 * "remote operation error, unexpected opcode", which RFC 7306 section 1.1 names as the error a
 * peer without the extensions reports, so that a requester can probe for them.
 */
public enum RdmapOpcode {
    RDMA_WRITE(0x0, "RDMA Write", true, -1, false, false, true),
    RDMA_READ_REQUEST(0x1, "RDMA Read Request", false, QN_READ_REQUEST, false, false, true),
    RDMA_READ_RESPONSE(0x2, "RDMA Read Response", true, -1, false, false, true),
    SEND(0x3, "Send", false, QN_SEND, false, false, true),
    SEND_WITH_INVALIDATE(0x4, "Send with Invalidate", false, QN_SEND, true, false, true),
    SEND_WITH_SOLICITED_EVENT(0x5, "Send with Solicited Event", false, QN_SEND, false, true, true),
    SEND_WITH_SOLICITED_EVENT_AND_INVALIDATE(0x6, "Send with Solicited Event and Invalidate", false, QN_SEND,
            true, true, true),
    TERMINATE(0x7, "Terminate", false, QN_TERMINATE, false, false, true),
    /** RFC 7306 section 6: 8 octets of immediate data, no ULP payload. */
    IMMEDIATE_DATA(0x8, "Immediate Data", false, QN_SEND, false, false, false),
    IMMEDIATE_DATA_WITH_SOLICITED_EVENT(0x9, "Immediate Data with Solicited Event", false, QN_SEND, false, true,
            false),
    /** RFC 7306 section 5.2.1: on the Read Request queue. */
    ATOMIC_REQUEST(0xA, "Atomic Request", false, QN_READ_REQUEST, false, false, false),
    /** RFC 7306 section 5.2.2: on queue 3, which RFC 7306 adds for atomic responses. */
    ATOMIC_RESPONSE(0xB, "Atomic Response", false, 3, false, false, false);

    private static final RdmapOpcode[] BY_WIRE_VALUE = new RdmapOpcode[16];

    static {
        for (RdmapOpcode opcode : values()) {
            BY_WIRE_VALUE[opcode.wireValue] = opcode;
        }
    }

    private final int wireValue;
    private final String messageName;
    private final boolean tagged;
    private final int queueNumber;
    private final boolean invalidatesStag;
    private final boolean solicitedEvent;
    private final boolean supported;

    RdmapOpcode(int wireValue, String messageName, boolean tagged, int queueNumber, boolean invalidatesStag,
            boolean solicitedEvent, boolean supported) {
        this.wireValue = wireValue;
        this.messageName = messageName;
        this.tagged = tagged;
        this.queueNumber = queueNumber;
        this.invalidatesStag = invalidatesStag;
        this.solicitedEvent = solicitedEvent;
        this.supported = supported;
    }

    /** The 4-bit Opcode field. */
    public int wireValue() {
        return wireValue;
    }

    /** The message's name in its RFC. */
    public String messageName() {
        return messageName;
    }

    /** Whether the message travels in tagged DDP segments (the T bit it must carry). */
    public boolean tagged() {
        return tagged;
    }

    /** The untagged queue the message must name, or -1 for tagged messages. */
    public int queueNumber() {
        return queueNumber;
    }

    /** Whether the untagged header's RsvdULP[8:39] carries an STag to invalidate (RFC 5040 section 4.1). */
    public boolean invalidatesStag() {
        return invalidatesStag;
    }

    /** Whether the message asks for a solicited event at the receiver (RFC 5040 section 5.3). */
    public boolean solicitedEvent() {
        return solicitedEvent;
    }

    /** Whether the message is one of RFC 5040's four Send variants. */
    public boolean isSend() {
        return this == SEND || this == SEND_WITH_INVALIDATE || this == SEND_WITH_SOLICITED_EVENT
                || this == SEND_WITH_SOLICITED_EVENT_AND_INVALIDATE;
    }

    /** False for the RFC 7306 extensions, which this implementation answers with a Terminate. */
    public boolean supported() {
        return supported;
    }

    /** The opcode with this 4-bit value, or null for the unassigned and experimental values. */
    public static RdmapOpcode fromWire(int value) {
        return value >= 0 && value < BY_WIRE_VALUE.length ? BY_WIRE_VALUE[value] : null;
    }

    @Override
    public String toString() {
        return messageName + String.format(" (0x%X)", wireValue);
    }
}
