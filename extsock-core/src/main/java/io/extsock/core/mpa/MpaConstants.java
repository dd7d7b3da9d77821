package io.extsock.core.mpa;

import java.nio.charset.StandardCharsets;

/**
 * Every number MPA puts on the wire, each with the section that defines it: RFC 5044 (MPA)
 * and RFC 6581 (enhanced connection setup). Other classes of this package refer to these
 * names instead of repeating literals.
 */
public final class MpaConstants {

    private MpaConstants() {
    }

    // ---- Request and Reply frames, RFC 5044 section 7.1.1 -----------------------------------

    /** The 16-octet key that opens an MPA Request frame. */
    public static final String REQUEST_KEY = "MPA ID Req Frame";
    /** The 16-octet key that opens an MPA Reply frame. */
    public static final String REPLY_KEY = "MPA ID Rep Frame";
    /** Length of either key. */
    public static final int KEY_LENGTH = 16;

    /** Offset of the flags octet (M, C, R, H and the reserved bits). */
    public static final int FLAGS_OFFSET = 16;
    /** Offset of the revision octet. */
    public static final int REVISION_OFFSET = 17;
    /** Offset of the 16-bit private data length. */
    public static final int PRIVATE_DATA_LENGTH_OFFSET = 18;
    /** Key, flags, revision and private data length: everything before the private data. */
    public static final int FRAME_HEADER_LENGTH = 20;

    /** M: its sender requires markers on the stream it receives. */
    public static final int FLAG_MARKERS = 0x80;
    /** C: its sender asks for CRC32c; CRCs are used when either frame sets it. */
    public static final int FLAG_CRC = 0x40;
    /** R: the Responder rejects the connection (meaningful in a Reply only). */
    public static final int FLAG_REJECT = 0x20;
    /** H: enhanced RDMA connection establishment, RFC 6581 section 6.1 (a bit of RFC 5044's Res). */
    public static final int FLAG_ENHANCED = 0x10;
    /** The four bits still reserved: sent as zero, kept as received. */
    public static final int FLAGS_RESERVED_MASK = 0x0F;

    /** The revision RFC 5044 defines. */
    public static final int REVISION_1 = 1;
    /** The revision RFC 6581 defines: revision 1 plus the enhanced setup carried under H. */
    public static final int REVISION_2 = 2;

    /** The largest private data a Request or Reply may carry. */
    public static final int MAX_PRIVATE_DATA = 512;
    /** A whole setup frame never exceeds this. */
    public static final int MAX_FRAME_LENGTH = FRAME_HEADER_LENGTH + MAX_PRIVATE_DATA;

    // ---- Enhanced setup data, RFC 6581 section 7.1 -----------------------------------------

    /** IRD and ORD words at the start of the private data when H is set in a revision 2 frame. */
    public static final int ENHANCED_SETUP_LENGTH = 4;
    /** Private data left to the ULP in an enhanced frame. */
    public static final int MAX_ULP_PRIVATE_DATA_ENHANCED = MAX_PRIVATE_DATA - ENHANCED_SETUP_LENGTH;
    /** IRD word, bit A: the peer-to-peer model, an RTR frame follows the Reply. */
    public static final int IRD_PEER_TO_PEER = 0x8000;
    /** IRD word, bit B: a zero-length Send may serve as RTR. */
    public static final int IRD_ZERO_LENGTH_SEND_RTR = 0x4000;
    /** ORD word, bit C: a zero-length RDMA Write may serve as RTR. */
    public static final int ORD_ZERO_LENGTH_WRITE_RTR = 0x8000;
    /** ORD word, bit D: a zero-length RDMA Read may serve as RTR. */
    public static final int ORD_ZERO_LENGTH_READ_RTR = 0x4000;
    /** The low 14 bits of either word: the IRD or ORD count. */
    public static final int IRD_ORD_MASK = 0x3FFF;

    // ---- FPDU framing, RFC 5044 sections 4 and 6 -------------------------------------------

    /** The ULPDU_Length field, section 4.1. */
    public static final int ULPDU_LENGTH_FIELD = 2;
    /** The largest ULPDU the 16-bit length field can describe. */
    public static final int MAX_ULPDU_LENGTH = 0xFFFF;
    /** The CRC field, always present (zero when CRC is not in use), section 4.1. */
    public static final int CRC_FIELD = 4;
    /** FPDUs are padded to this alignment (counting the length field, not markers), section 4.1. */
    public static final int FPDU_ALIGNMENT = 4;
    /** The smallest FPDU: length, empty ULPDU, 2 pad octets, CRC. */
    public static final int MIN_FPDU_LENGTH = 8;

    // ---- Markers, RFC 5044 section 4.3 ------------------------------------------------------

    /** A marker sits at every this many octets of a direction's stream. */
    public static final int MARKER_INTERVAL = 512;
    /** Reserved (16 bits, zero) and FPDUPTR (16 bits). */
    public static final int MARKER_LENGTH = 4;

    // ---- Sizing ----------------------------------------------------------------------------

    /**
     * The FPDU size we send by default: one TCP segment on a 1500-octet MTU path with TCP
     * timestamps (1500 - 20 IPv4 - 20 TCP - 12 timestamp option), Linux's default MSS, so that
     * every FPDU starts a segment as RFC 5044 section 5 recommends.
     */
    public static final int DEFAULT_MAX_FPDU_SIZE = 1448;

    static byte[] keyBytes(String key) {
        return key.getBytes(StandardCharsets.US_ASCII);
    }
}
