package io.extsock.core.rdmap;

import static io.extsock.core.rdmap.RdmapConstants.READ_REQUEST_HEADER_LENGTH;
import static io.extsock.core.rdmap.RdmapConstants.READ_SIZE_OFFSET;
import static io.extsock.core.rdmap.RdmapConstants.SINK_STAG_OFFSET;
import static io.extsock.core.rdmap.RdmapConstants.SINK_TAGGED_OFFSET_OFFSET;
import static io.extsock.core.rdmap.RdmapConstants.SOURCE_STAG_OFFSET;
import static io.extsock.core.rdmap.RdmapConstants.SOURCE_TAGGED_OFFSET_OFFSET;

import io.extsock.core.ddp.NetworkOrder;
import java.nio.ByteBuffer;

/**
 * The 28-octet RDMA Read Request header (RFC 5040 section 4.4; layout in {@link RdmapConstants}):
 * where the data comes from at the responder (SrcSTag, SrcTO), where it goes at the requester
 * (SinkSTag, SinkTO), and how much (RDMARDSZ, 0 to 2^32 - 1). Mutable and reused.
 *
 * <p>The sink fields are copied unread into the Read Response (section 4.4); the source fields
 * are checked by the responder before it reads (section 7.2), which needs its STag table.
 */
public final class ReadRequestHeader {

    private int sinkStag;
    private long sinkTaggedOffset;
    private int readSize;
    private int sourceStag;
    private long sourceTaggedOffset;

    public ReadRequestHeader set(int sinkStag, long sinkTaggedOffset, long readSize, int sourceStag,
            long sourceTaggedOffset) {
        if (readSize < 0 || readSize > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("RDMARDSZ is 32 bits (RFC 5040 section 4.4): " + readSize);
        }
        this.sinkStag = sinkStag;
        this.sinkTaggedOffset = sinkTaggedOffset;
        this.readSize = (int) readSize;
        this.sourceStag = sourceStag;
        this.sourceTaggedOffset = sourceTaggedOffset;
        return this;
    }

    public ReadRequestHeader copyFrom(ReadRequestHeader other) {
        sinkStag = other.sinkStag;
        sinkTaggedOffset = other.sinkTaggedOffset;
        readSize = other.readSize;
        sourceStag = other.sourceStag;
        sourceTaggedOffset = other.sourceTaggedOffset;
        return this;
    }

    /** Reads the header's 28 octets at {@code index}; the caller has checked they are there. */
    public ReadRequestHeader read(ByteBuffer buffer, int index) {
        sinkStag = NetworkOrder.getInt(buffer, index + SINK_STAG_OFFSET);
        sinkTaggedOffset = NetworkOrder.getLong(buffer, index + SINK_TAGGED_OFFSET_OFFSET);
        readSize = NetworkOrder.getInt(buffer, index + READ_SIZE_OFFSET);
        sourceStag = NetworkOrder.getInt(buffer, index + SOURCE_STAG_OFFSET);
        sourceTaggedOffset = NetworkOrder.getLong(buffer, index + SOURCE_TAGGED_OFFSET_OFFSET);
        return this;
    }

    /** Writes the 28 octets at the buffer's position and advances it. */
    public void put(ByteBuffer dst) {
        if (dst.remaining() < READ_REQUEST_HEADER_LENGTH) {
            throw new java.nio.BufferOverflowException();
        }
        int at = dst.position();
        NetworkOrder.putInt(dst, at + SINK_STAG_OFFSET, sinkStag);
        NetworkOrder.putLong(dst, at + SINK_TAGGED_OFFSET_OFFSET, sinkTaggedOffset);
        NetworkOrder.putInt(dst, at + READ_SIZE_OFFSET, readSize);
        NetworkOrder.putInt(dst, at + SOURCE_STAG_OFFSET, sourceStag);
        NetworkOrder.putLong(dst, at + SOURCE_TAGGED_OFFSET_OFFSET, sourceTaggedOffset);
        dst.position(at + READ_REQUEST_HEADER_LENGTH);
    }

    public int sinkStag() {
        return sinkStag;
    }

    public long sinkTaggedOffset() {
        return sinkTaggedOffset;
    }

    /** RDMARDSZ, an unsigned 32-bit octet count. */
    public long readSize() {
        return Integer.toUnsignedLong(readSize);
    }

    public int sourceStag() {
        return sourceStag;
    }

    public long sourceTaggedOffset() {
        return sourceTaggedOffset;
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof ReadRequestHeader)) {
            return false;
        }
        ReadRequestHeader that = (ReadRequestHeader) other;
        return sinkStag == that.sinkStag && sinkTaggedOffset == that.sinkTaggedOffset && readSize == that.readSize
                && sourceStag == that.sourceStag && sourceTaggedOffset == that.sourceTaggedOffset;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(sinkStag, sinkTaggedOffset, readSize, sourceStag, sourceTaggedOffset);
    }

    @Override
    public String toString() {
        return String.format("ReadRequest sink=0x%08x/0x%x size=%d source=0x%08x/0x%x", sinkStag, sinkTaggedOffset,
                readSize(), sourceStag, sourceTaggedOffset);
    }
}
