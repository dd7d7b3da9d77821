package io.extsock.core.ddp;

import static io.extsock.core.ddp.DdpConstants.DDP_VERSION;
import static io.extsock.core.ddp.DdpConstants.LAST_FLAG;
import static io.extsock.core.ddp.DdpConstants.MESSAGE_OFFSET_OFFSET;
import static io.extsock.core.ddp.DdpConstants.MESSAGE_SEQUENCE_NUMBER_OFFSET;
import static io.extsock.core.ddp.DdpConstants.QUEUE_NUMBER_OFFSET;
import static io.extsock.core.ddp.DdpConstants.RSVD_ULP2_OFFSET;
import static io.extsock.core.ddp.DdpConstants.RSVD_ULP_OFFSET;
import static io.extsock.core.ddp.DdpConstants.STAG_OFFSET;
import static io.extsock.core.ddp.DdpConstants.TAGGED_FLAG;
import static io.extsock.core.ddp.DdpConstants.TAGGED_HEADER_LENGTH;
import static io.extsock.core.ddp.DdpConstants.TAGGED_OFFSET_OFFSET;
import static io.extsock.core.ddp.DdpConstants.UNTAGGED_HEADER_LENGTH;

import java.nio.ByteBuffer;

/**
 * Writes DDP segment headers (RFC 5041 sections 4.2 and 4.3) at a caller-supplied buffer's
 * position and advances it; allocates nothing. The reserved bits of the control field are
 * always zero (RFC 5041 section 4.1) and DV is 1.
 *
 * <p>Arguments come from our own upper layers, not from the wire, so wrong ones are bugs and
 * fail with {@link IllegalArgumentException}; a buffer too small fails with
 * {@link java.nio.BufferOverflowException} before anything is written.
 */
public final class DdpHeaderEncoder {

    private DdpHeaderEncoder() {
    }

    /** The DDP control octet: T and L as given, Rsvd zero, DV 1. */
    public static int controlField(boolean tagged, boolean last) {
        return (tagged ? TAGGED_FLAG : 0) | (last ? LAST_FLAG : 0) | DDP_VERSION;
    }

    /** Writes a 14-octet tagged header. */
    public static void putTagged(ByteBuffer dst, boolean last, int rdmapControl, int stag, long taggedOffset) {
        byte rdmap = octet(rdmapControl);
        int at = reserve(dst, TAGGED_HEADER_LENGTH);
        dst.put(at, (byte) controlField(true, last));
        dst.put(at + RSVD_ULP_OFFSET, rdmap);
        NetworkOrder.putInt(dst, at + STAG_OFFSET, stag);
        NetworkOrder.putLong(dst, at + TAGGED_OFFSET_OFFSET, taggedOffset);
        dst.position(at + TAGGED_HEADER_LENGTH);
    }

    /**
     * Writes an 18-octet untagged header. {@code rsvdUlp2} is RsvdULP[8:39]: the STag to
     * invalidate for RDMAP's invalidate variants, zero otherwise.
     */
    public static void putUntagged(ByteBuffer dst, boolean last, int rdmapControl, int rsvdUlp2,
            int queueNumber, int messageSequenceNumber, long messageOffset) {
        if (messageOffset < 0 || messageOffset > DdpConstants.MAX_MESSAGE_LENGTH) {
            throw new IllegalArgumentException("message offset out of 32 bits: " + messageOffset);
        }
        byte rdmap = octet(rdmapControl);
        int at = reserve(dst, UNTAGGED_HEADER_LENGTH);
        dst.put(at, (byte) controlField(false, last));
        dst.put(at + RSVD_ULP_OFFSET, rdmap);
        NetworkOrder.putInt(dst, at + RSVD_ULP2_OFFSET, rsvdUlp2);
        NetworkOrder.putInt(dst, at + QUEUE_NUMBER_OFFSET, queueNumber);
        NetworkOrder.putInt(dst, at + MESSAGE_SEQUENCE_NUMBER_OFFSET, messageSequenceNumber);
        NetworkOrder.putInt(dst, at + MESSAGE_OFFSET_OFFSET, (int) messageOffset);
        dst.position(at + UNTAGGED_HEADER_LENGTH);
    }

    private static int reserve(ByteBuffer dst, int length) {
        if (dst.remaining() < length) {
            throw new java.nio.BufferOverflowException();
        }
        return dst.position();
    }

    private static byte octet(int rdmapControl) {
        if ((rdmapControl & ~0xFF) != 0) {
            throw new IllegalArgumentException("RsvdULP octet out of range: " + rdmapControl);
        }
        return (byte) rdmapControl;
    }
}
