package io.extsock.core.terminate;

import static io.extsock.core.terminate.ErrorLayer.DDP;
import static io.extsock.core.terminate.ErrorLayer.LLP;
import static io.extsock.core.terminate.ErrorLayer.RDMAP;

/**
 * Every error an iWARP peer can report in a Terminate message: layer, error type and error
 * code, as defined by RFC 5040 section 4.8 Figure 9 (RDMAP), RFC 5041 section 7.2 (DDP),
 * RFC 5044 section 8 and RFC 6581 section 8 (MPA), and as registered by IANA in the RDDP
 * registry (RFC 6580 section 3, RFC 6581 section 11). RFC 7306 registers opcodes and a queue
 * number but no error; it reuses these.
 *
 * <p>The control word of a Terminate message starts {@code Layer(4) | EType(4) | ErrCode(8)}.
 * Two registered entries cover every error code of their error type ("ALL" in the registry):
 * RDMAP Local Catastrophic Error, and DDP error type 3, which RFC 5041 reserves for the
 * lower-layer protocol. All other entries name one code.
 */
public enum TerminateCause {

    // ---- RDMAP (layer 0x0), RFC 5040 section 4.8 Figure 9 -----------------------------------
    RDMAP_LOCAL_CATASTROPHIC(RDMAP, 0x0, 0x00, true, "RDMAP local catastrophic error"),
    RDMAP_INVALID_STAG(RDMAP, 0x1, 0x00, "RDMAP remote protection error: invalid STag"),
    RDMAP_BASE_OR_BOUNDS(RDMAP, 0x1, 0x01, "RDMAP remote protection error: base or bounds violation"),
    RDMAP_ACCESS_RIGHTS(RDMAP, 0x1, 0x02, "RDMAP remote protection error: access rights violation"),
    RDMAP_STAG_NOT_ASSOCIATED(RDMAP, 0x1, 0x03,
            "RDMAP remote protection error: STag not associated with RDMAP stream"),
    RDMAP_TO_WRAP(RDMAP, 0x1, 0x04, "RDMAP remote protection error: tagged offset wrap"),
    RDMAP_PROTECTION_CANNOT_INVALIDATE(RDMAP, 0x1, 0x09,
            "RDMAP remote protection error: STag cannot be invalidated"),
    RDMAP_PROTECTION_UNSPECIFIED(RDMAP, 0x1, 0xFF, "RDMAP remote protection error: unspecified error"),
    RDMAP_INVALID_VERSION(RDMAP, 0x2, 0x05, "RDMAP remote operation error: invalid RDMAP version"),
    RDMAP_UNEXPECTED_OPCODE(RDMAP, 0x2, 0x06, "RDMAP remote operation error: unexpected opcode"),
    RDMAP_CATASTROPHIC_STREAM(RDMAP, 0x2, 0x07,
            "RDMAP remote operation error: catastrophic error, localized to RDMAP stream"),
    RDMAP_CATASTROPHIC_GLOBAL(RDMAP, 0x2, 0x08, "RDMAP remote operation error: catastrophic error, global"),
    RDMAP_OPERATION_CANNOT_INVALIDATE(RDMAP, 0x2, 0x09,
            "RDMAP remote operation error: STag cannot be invalidated"),
    RDMAP_OPERATION_UNSPECIFIED(RDMAP, 0x2, 0xFF, "RDMAP remote operation error: unspecified error"),

    // ---- DDP (layer 0x1), RFC 5041 section 7.2 ----------------------------------------------
    DDP_LOCAL_CATASTROPHIC(DDP, 0x0, 0x00, "DDP local catastrophic error"),
    DDP_TAGGED_INVALID_STAG(DDP, 0x1, 0x00, "DDP tagged buffer error: invalid STag"),
    DDP_TAGGED_BASE_OR_BOUNDS(DDP, 0x1, 0x01, "DDP tagged buffer error: base or bounds violation"),
    DDP_TAGGED_STAG_NOT_ASSOCIATED(DDP, 0x1, 0x02,
            "DDP tagged buffer error: STag not associated with DDP stream"),
    DDP_TAGGED_TO_WRAP(DDP, 0x1, 0x03, "DDP tagged buffer error: tagged offset wrap"),
    DDP_TAGGED_INVALID_VERSION(DDP, 0x1, 0x04, "DDP tagged buffer error: invalid DDP version"),
    DDP_UNTAGGED_INVALID_QN(DDP, 0x2, 0x01, "DDP untagged buffer error: invalid queue number"),
    DDP_UNTAGGED_NO_BUFFER(DDP, 0x2, 0x02,
            "DDP untagged buffer error: invalid message sequence number, no buffer available"),
    DDP_UNTAGGED_INVALID_MSN_RANGE(DDP, 0x2, 0x03,
            "DDP untagged buffer error: invalid message sequence number, range is not valid"),
    DDP_UNTAGGED_INVALID_MO(DDP, 0x2, 0x04, "DDP untagged buffer error: invalid message offset"),
    DDP_UNTAGGED_MESSAGE_TOO_LONG(DDP, 0x2, 0x05,
            "DDP untagged buffer error: DDP message too long for available buffer"),
    DDP_UNTAGGED_INVALID_VERSION(DDP, 0x2, 0x06, "DDP untagged buffer error: invalid DDP version"),
    /** Error type 3 is reserved for the LLP (RFC 5041 section 7.2); we never send it. */
    DDP_RESERVED_FOR_LLP(DDP, 0x3, 0x00, true, "DDP error reserved for use by the lower-layer protocol"),

    // ---- LLP: MPA (layer 0x2, error type 0x0), RFC 5044 section 8, RFC 6581 section 8 ---------
    LLP_TCP_STREAM_LOST(LLP, 0x0, 0x01, "MPA error: TCP connection closed, terminated or lost"),
    LLP_MPA_CRC(LLP, 0x0, 0x02, "MPA error: MPA CRC error"),
    LLP_MPA_MARKER(LLP, 0x0, 0x03, "MPA error: MPA marker and ULPDU length field mismatch"),
    LLP_MPA_INVALID_REQUEST_REPLY(LLP, 0x0, 0x04, "MPA error: invalid MPA Request or Reply frame"),
    LLP_MPA_LOCAL_CATASTROPHIC(LLP, 0x0, 0x05, "MPA error: local catastrophic error"),
    LLP_MPA_INSUFFICIENT_IRD(LLP, 0x0, 0x06, "MPA error: insufficient IRD resources"),
    LLP_MPA_NO_MATCHING_RTR(LLP, 0x0, 0x07, "MPA error: no matching RTR option");

    private static final TerminateCause[] VALUES = values();

    private final ErrorLayer layer;
    private final int errorType;
    private final int errorCode;
    private final boolean anyErrorCode;
    private final String description;

    TerminateCause(ErrorLayer layer, int errorType, int errorCode, String description) {
        this(layer, errorType, errorCode, false, description);
    }

    TerminateCause(ErrorLayer layer, int errorType, int errorCode, boolean anyErrorCode, String description) {
        this.layer = layer;
        this.errorType = errorType;
        this.errorCode = errorCode;
        this.anyErrorCode = anyErrorCode;
        this.description = description;
    }

    public ErrorLayer layer() {
        return layer;
    }

    /** The 4-bit EType value on the wire. */
    public int errorType() {
        return errorType;
    }

    /** The 8-bit ErrCode value this side sends (0 for the entries that accept any code). */
    public int errorCode() {
        return errorCode;
    }

    /** True when the registry names no code for this error type: any ErrCode means this cause. */
    public boolean matchesAnyErrorCode() {
        return anyErrorCode;
    }

    /** What the error means, in the words of the RFCs and the IANA registry. */
    public String description() {
        return description;
    }

    /** The first 16 bits of the Terminate control word: {@code Layer | EType | ErrCode}. */
    public int controlBits() {
        return layer.wireValue() << 12 | errorType << 8 | errorCode;
    }

    /**
     * The cause with these wire values, or null for a combination no RFC defines. Allocation
     * free: safe to call on every received Terminate.
     */
    public static TerminateCause fromWire(int layer, int errorType, int errorCode) {
        for (TerminateCause cause : VALUES) {
            if (cause.layer.wireValue() == layer && cause.errorType == errorType
                    && (cause.anyErrorCode || cause.errorCode == errorCode)) {
                return cause;
            }
        }
        return null;
    }

    /** The cause named by the first 16 bits of an RFC 5040 Terminate control word, or null. */
    public static TerminateCause fromControlBits(int controlBits) {
        return fromWire(controlBits >>> 12 & 0xF, controlBits >>> 8 & 0xF, controlBits & 0xFF);
    }

    @Override
    public String toString() {
        return name() + String.format(" (layer %d, type %d, code %s)", layer.wireValue(), errorType,
                anyErrorCode ? "any" : String.format("0x%02X", errorCode));
    }
}
