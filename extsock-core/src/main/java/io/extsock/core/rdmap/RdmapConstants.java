package io.extsock.core.rdmap;

/**
 * The numbers of the RDMA Protocol (RFC 5040, extended by RFC 7306), each with the section
 * that defines it. All multi-octet fields are big-endian.
 *
 * <pre>
 * RDMAP control field: the DDP RsvdULP octet, octet 1 of every segment (RFC 5040 section 4.1):
 *   0 1 2 3 4 5 6 7
 *  +---+---+-------+
 *  |RV |Rsv|Opcode |     RV = 01b; Rsv zero on send, ignored on receive
 *  +---+---+-------+
 *
 * RDMA Read Request header, right after the 18-octet untagged DDP header (RFC 5040 section 4.4):
 *  +---------------------------------------------------------------+
 *  |  SinkSTag (octets 0..3)                                       |
 *  |  SinkTO, 64 bits (octets 4..11)                               |
 *  |  RDMARDSZ (octets 12..15)                                     |
 *  |  SrcSTag (octets 16..19)                                      |
 *  |  SrcTO, 64 bits (octets 20..27)                               |
 *  +---------------------------------------------------------------+
 *
 * Terminate header, right after the 18-octet untagged DDP header (RFC 5040 section 4.8):
 *   0               1               2               3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-------+-------+---------------+-+-+-+-------------------------+
 *  | Layer | EType |   ErrorCode   |M|D|R|  Reserved (13 bits)     |
 *  +-------+-------+---------------+-+-+-+-------------------------+
 *  |  DDP Segment Length, 16 bits  |  Terminated DDP header,       |   if D
 *  +-------------------------------+  14 or 18 octets ...          |
 *  |  Terminated RDMA header: the 28-octet Read Request header     |   if R
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class RdmapConstants {

    private RdmapConstants() {
    }

    // ---- control field (RFC 5040 section 4.1) ---------------------------------------------

    public static final int VERSION_BITS = 0xC0;
    public static final int VERSION_SHIFT = 6;
    /** RV 01b is this specification; 00b was the RDMA Consortium's, used only over MPA revision 0. */
    public static final int RDMAP_VERSION = 1;
    /** Rsv: "MUST be set to zero by sender, ignored by the receiver". */
    public static final int RESERVED_BITS = 0x30;
    public static final int OPCODE_BITS = 0x0F;

    // ---- RDMA Read Request header (RFC 5040 section 4.4) -----------------------------------

    public static final int SINK_STAG_OFFSET = 0;
    public static final int SINK_TAGGED_OFFSET_OFFSET = 4;
    public static final int READ_SIZE_OFFSET = 12;
    public static final int SOURCE_STAG_OFFSET = 16;
    public static final int SOURCE_TAGGED_OFFSET_OFFSET = 20;
    public static final int READ_REQUEST_HEADER_LENGTH = 28;

    // ---- Terminate header (RFC 5040 section 4.8) ------------------------------------------

    public static final int TERMINATE_CONTROL_LENGTH = 4;
    public static final int LAYER_SHIFT = 28;
    public static final int ERROR_TYPE_SHIFT = 24;
    public static final int ERROR_CODE_SHIFT = 16;
    /** M, bit 16: the DDP Segment Length field is valid. */
    public static final int SEGMENT_LENGTH_VALID_FLAG = 0x8000;
    /** D, bit 17: the DDP segment length and the terminated DDP header are included. */
    public static final int DDP_HEADER_INCLUDED_FLAG = 0x4000;
    /** R, bit 18: the terminated RDMA (Read Request) header is included. */
    public static final int RDMA_HEADER_INCLUDED_FLAG = 0x2000;
    /** "MUST be set to zero on transmit, ignored on receive." */
    public static final int TERMINATE_RESERVED_BITS = 0x1FFF;
    public static final int DDP_SEGMENT_LENGTH_LENGTH = 2;
    /** The terminated RDMA header is 224 bits: a Read Request header. */
    public static final int TERMINATED_RDMA_HEADER_LENGTH = READ_REQUEST_HEADER_LENGTH;
    public static final int MAX_TERMINATE_HEADER_LENGTH = TERMINATE_CONTROL_LENGTH + DDP_SEGMENT_LENGTH_LENGTH
            + io.extsock.core.ddp.DdpConstants.UNTAGGED_HEADER_LENGTH + TERMINATED_RDMA_HEADER_LENGTH;

    /** The RDMAP control octet that sends {@code opcode}: RV 1, Rsv 0. */
    public static int controlField(RdmapOpcode opcode) {
        return RDMAP_VERSION << VERSION_SHIFT | opcode.wireValue();
    }
}
