package io.extsock.core.rdmap;

import static io.extsock.core.rdmap.RdmapConstants.DDP_HEADER_INCLUDED_FLAG;
import static io.extsock.core.rdmap.RdmapConstants.ERROR_CODE_SHIFT;
import static io.extsock.core.rdmap.RdmapConstants.ERROR_TYPE_SHIFT;
import static io.extsock.core.rdmap.RdmapConstants.LAYER_SHIFT;
import static io.extsock.core.rdmap.RdmapConstants.RDMA_HEADER_INCLUDED_FLAG;
import static io.extsock.core.rdmap.RdmapConstants.SEGMENT_LENGTH_VALID_FLAG;
import static io.extsock.core.rdmap.RdmapConstants.TERMINATE_RESERVED_BITS;

/**
 * The two ways the 32-bit Terminate control word is found on the wire. Each reads the fields
 * from the word as four octets taken big-endian ({@code b0 << 24 | b1 << 16 | b2 << 8 | b3}).
 */
public enum TerminateControlLayout {

    /**
     * RFC 5040 section 4.8 Figure 8: Layer in the high nibble of octet 0, EType in its low
     * nibble, ErrorCode in octet 1, then M, D, R from the top of octet 2, then 13 reserved bits.
     * The only layout we send.
     */
    RFC_5040 {
        @Override
        public int layer(int word) {
            return word >>> LAYER_SHIFT & 0xF;
        }

        @Override
        public int errorType(int word) {
            return word >>> ERROR_TYPE_SHIFT & 0xF;
        }

        @Override
        public boolean segmentLengthValid(int word) {
            return (word & SEGMENT_LENGTH_VALID_FLAG) != 0;
        }

        @Override
        public boolean ddpHeaderIncluded(int word) {
            return (word & DDP_HEADER_INCLUDED_FLAG) != 0;
        }

        @Override
        public boolean rdmaHeaderIncluded(int word) {
            return (word & RDMA_HEADER_INCLUDED_FLAG) != 0;
        }

        @Override
        public int reservedBits(int word) {
            return word & TERMINATE_RESERVED_BITS;
        }
    },

    /**
     * What Linux siw sends from a little-endian host: its {@code struct iwarp_terminate}
     * declares the fields as C bit-fields, which x86 allocates from the least significant bit of
     * each octet. Layer lands in the low nibble of octet 0 and EType in the high nibble, M, D and
     * R in the three lowest bits of octet 2, and the reserved bits above them. siw's CRC error
     * reads {@code 02 02 00 00}: layer 2 (LLP), type 0 (MPA), code 2 (CRC).
     */
    LITTLE_ENDIAN_BITFIELDS {
        @Override
        public int layer(int word) {
            return word >>> 24 & 0xF;
        }

        @Override
        public int errorType(int word) {
            return word >>> 28 & 0xF;
        }

        @Override
        public boolean segmentLengthValid(int word) {
            return (word & 0x0100) != 0;
        }

        @Override
        public boolean ddpHeaderIncluded(int word) {
            return (word & 0x0200) != 0;
        }

        @Override
        public boolean rdmaHeaderIncluded(int word) {
            return (word & 0x0400) != 0;
        }

        @Override
        public int reservedBits(int word) {
            return (word >>> 11 & 0x1F) | (word & 0xFF) << 5;
        }
    };

    public abstract int layer(int word);

    public abstract int errorType(int word);

    /** ErrorCode is a whole octet, octet 1, in both layouts. */
    public int errorCode(int word) {
        return word >>> ERROR_CODE_SHIFT & 0xFF;
    }

    /** M: the DDP Segment Length field is valid. */
    public abstract boolean segmentLengthValid(int word);

    /** D: the DDP segment length and the terminated DDP header follow. */
    public abstract boolean ddpHeaderIncluded(int word);

    /** R: the terminated RDMA (Read Request) header follows. */
    public abstract boolean rdmaHeaderIncluded(int word);

    /** The 13 reserved bits. */
    public abstract int reservedBits(int word);
}
