package io.extsock.core.ddp;

/**
 * The numbers of the Direct Data Placement protocol (RFC 5041), each with the section that
 * defines it. All multi-octet fields are big-endian. Offsets count from the first octet of the
 * DDP segment, which is the first octet of the MPA ULPDU (after the 16-bit ULPDU_Length).
 *
 * <pre>
 * Tagged segment header, 14 octets (RFC 5041 section 4.2):
 *   0               1               2               3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-------+---+---------------+-------------------------------+
 *  |T|L| Rsvd  |DV |    RsvdULP    |  STag (octets 2..5) ...       |
 *  +-+-+-------+---+---------------+-------------------------------+
 *  |  ... STag     |  TO, 64 bits (octets 6..13) ...               |
 *  +---------------+-----------------------------------------------+
 *
 * Untagged segment header, 18 octets (RFC 5041 section 4.3):
 *  +-+-+-------+---+---------------+
 *  |T|L| Rsvd  |DV | RsvdULP[0:7]  |   octets 0..1
 *  +---------------+---------------+-------------------------------+
 *  |                 RsvdULP[8:39]  (octets 2..5)                  |
 *  |                 QN             (octets 6..9)                  |
 *  |                 MSN            (octets 10..13)                |
 *  |                 MO             (octets 14..17)                |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * RDMAP owns the whole RsvdULP field: octet 1 is its control byte and RsvdULP[8:39] carries the
 * STag to invalidate (RFC 5040 section 4.1).
 */
public final class DdpConstants {

    private DdpConstants() {
    }

    // ---- DDP control field, octet 0 (RFC 5041 section 4.1) ----------------------------------

    /** T: the payload goes into a tagged buffer. */
    public static final int TAGGED_FLAG = 0x80;
    /** L: the last segment of a DDP message. */
    public static final int LAST_FLAG = 0x40;
    /** Rsvd: zero on transmit, not checked on receive (RFC 5041 section 4.1). */
    public static final int RESERVED_BITS = 0x3C;
    /** DV: the DDP version. */
    public static final int VERSION_BITS = 0x03;
    /** The only DDP version this specification defines (RFC 5041 section 4.1). */
    public static final int DDP_VERSION = 1;

    // ---- field offsets --------------------------------------------------------------------

    public static final int CONTROL_OFFSET = 0;
    /** RsvdULP (tagged) or RsvdULP[0:7] (untagged): RDMAP's control byte. */
    public static final int RSVD_ULP_OFFSET = 1;

    public static final int STAG_OFFSET = 2;
    public static final int TAGGED_OFFSET_OFFSET = 6;
    public static final int TAGGED_HEADER_LENGTH = 14;

    /** RsvdULP[8:39]: RDMAP's Invalidate STag field. */
    public static final int RSVD_ULP2_OFFSET = 2;
    public static final int QUEUE_NUMBER_OFFSET = 6;
    public static final int MESSAGE_SEQUENCE_NUMBER_OFFSET = 10;
    public static final int MESSAGE_OFFSET_OFFSET = 14;
    public static final int UNTAGGED_HEADER_LENGTH = 18;

    // ---- untagged queues -------------------------------------------------------------------

    /**
     * DDP leaves the meaning of queue numbers to its ULP (RFC 5041 section 5.1.2); RDMAP, our
     * only ULP, uses these three (RFC 5040 section 4.1 Figure 4). RFC 7306 section 4.1 adds
     * queue 3 for atomic responses, which we do not support.
     */
    public static final int QN_SEND = 0;
    public static final int QN_READ_REQUEST = 1;
    public static final int QN_TERMINATE = 2;
    public static final int QUEUE_COUNT = 3;

    /** Every queue's first message has MSN 1; MSN wraps to 0 after 0xFFFFFFFF (RFC 5041 section 4.3). */
    public static final int INITIAL_MSN = 1;

    // ---- sizes -----------------------------------------------------------------------------

    /** A ULP message is shorter than 2^32 octets (RFC 5041 section 5.2). */
    public static final long MAX_MESSAGE_LENGTH = 0xFFFF_FFFFL;

    /** A segment travels in one MPA FPDU whose ULPDU_Length is 16 bits (RFC 5044 section 4.1). */
    public static final int MAX_SEGMENT_LENGTH = 0xFFFF;

    /** The header length a segment announces with the T bit of its first octet. */
    public static int headerLength(int controlByte) {
        return (controlByte & TAGGED_FLAG) != 0 ? TAGGED_HEADER_LENGTH : UNTAGGED_HEADER_LENGTH;
    }
}
