package io.extsock.core.ddp;

import static io.extsock.core.ddp.DdpConstants.CONTROL_OFFSET;
import static io.extsock.core.ddp.DdpConstants.DDP_VERSION;
import static io.extsock.core.ddp.DdpConstants.LAST_FLAG;
import static io.extsock.core.ddp.DdpConstants.MAX_SEGMENT_LENGTH;
import static io.extsock.core.ddp.DdpConstants.MESSAGE_OFFSET_OFFSET;
import static io.extsock.core.ddp.DdpConstants.MESSAGE_SEQUENCE_NUMBER_OFFSET;
import static io.extsock.core.ddp.DdpConstants.QUEUE_COUNT;
import static io.extsock.core.ddp.DdpConstants.QUEUE_NUMBER_OFFSET;
import static io.extsock.core.ddp.DdpConstants.RESERVED_BITS;
import static io.extsock.core.ddp.DdpConstants.RSVD_ULP2_OFFSET;
import static io.extsock.core.ddp.DdpConstants.RSVD_ULP_OFFSET;
import static io.extsock.core.ddp.DdpConstants.STAG_OFFSET;
import static io.extsock.core.ddp.DdpConstants.TAGGED_FLAG;
import static io.extsock.core.ddp.DdpConstants.TAGGED_OFFSET_OFFSET;
import static io.extsock.core.ddp.DdpConstants.VERSION_BITS;

import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import java.nio.ByteBuffer;

/**
 * The header of one received DDP segment (RFC 5041 section 4; layout in {@link DdpConstants}).
 * One instance is reused for every segment of a stream: {@link #parse} reads and checks the
 * header in place and allocates nothing.
 *
 * <p>What parsing checks, and the Terminate cause each failure carries:
 * <ul>
 *   <li>DV is 1, else DDP tagged or untagged "invalid DDP version" by the T bit
 *       (RFC 5041 sections 4.1 and 7.2). DV comes first: another version could lay the header
 *       out differently.</li>
 *   <li>The segment holds the whole header its T bit announces (RFC 5041 section 4.4: every
 *       segment contains a DDP header). DDP has no error code for a truncated header
 *       (section 7.2 lists only buffer errors), so this is reported as RDMAP "remote operation
 *       error, catastrophic error localized to RDMAP stream" (RFC 5040 section 4.8 Figure 9),
 *       the code RFC 7306 section 8.2 also uses for a malformed incoming field.</li>
 *   <li>An untagged segment names a queue the ULP defines, else DDP "invalid QN"
 *       (RFC 5041 section 7.1 check 1).</li>
 * </ul>
 * The reserved bits of the control field are exposed but never checked: RFC 5041 section 4.1
 * says they "MUST be set to zero on transmit, and not checked on receive". RsvdULP belongs to
 * the ULP and is passed up unchecked (RFC 5041 sections 4.2 and 4.3).
 *
 * <p>Checks that need stream state (MSN, MO, buffers, STags) live in {@link UntaggedMessageTracker}
 * and {@link TaggedPlacementChecker}.
 */
public final class DdpSegmentHeader {

    private int control;
    private int rsvdUlp;
    private int stag;
    private long taggedOffset;
    private int rsvdUlp2;
    private int queueNumber;
    private int messageSequenceNumber;
    private int messageOffset;
    private int segmentLength;

    /** Parses the segment between the buffer's position and limit; the position does not move. */
    public DdpSegmentHeader parse(ByteBuffer segment) throws ProtocolViolationException {
        return parse(segment, segment.position(), segment.remaining());
    }

    /**
     * Parses and checks the header of the DDP segment of {@code segmentLength} octets (the MPA
     * ULPDU_Length) that starts at {@code offset}. Only the header octets (as many as the
     * segment has, up to the header length its T bit announces) need to be in the buffer: the
     * payload may already have been placed elsewhere, which is the point of direct placement.
     *
     * @throws ProtocolViolationException when the peer broke a rule listed in the class comment
     * @throws IllegalArgumentException when the length is negative, larger than an MPA ULPDU
     *     can be, or the header octets run past the buffer's limit: a local bug, not remote
     *     input
     */
    public DdpSegmentHeader parse(ByteBuffer buffer, int offset, int segmentLength)
            throws ProtocolViolationException {
        checkBounds(buffer, offset, Math.min(segmentLength, 1), segmentLength);
        if (segmentLength == 0) {
            throw new ProtocolViolationException(TerminateCause.RDMAP_CATASTROPHIC_STREAM,
                    "empty DDP segment: every segment must carry a DDP header (RFC 5041 section 4.4)");
        }
        int controlByte = NetworkOrder.getUnsignedByte(buffer, offset + CONTROL_OFFSET);
        boolean tagged = (controlByte & TAGGED_FLAG) != 0;
        int version = controlByte & VERSION_BITS;
        if (version != DDP_VERSION) {
            throw new ProtocolViolationException(
                    tagged ? TerminateCause.DDP_TAGGED_INVALID_VERSION : TerminateCause.DDP_UNTAGGED_INVALID_VERSION,
                    "DDP version " + version + " in a " + (tagged ? "tagged" : "untagged")
                            + " segment; only version 1 is defined (RFC 5041 section 4.1)");
        }
        int headerLength = DdpConstants.headerLength(controlByte);
        if (segmentLength < headerLength) {
            throw new ProtocolViolationException(TerminateCause.RDMAP_CATASTROPHIC_STREAM,
                    "DDP segment of " + segmentLength + " octets cannot hold the " + headerLength
                            + "-octet " + (tagged ? "tagged" : "untagged")
                            + " header its T bit announces (RFC 5041 section 4.4)");
        }
        checkBounds(buffer, offset, headerLength, segmentLength);
        read(buffer, offset, segmentLength);
        if (!tagged && Integer.compareUnsigned(queueNumber, QUEUE_COUNT) >= 0) {
            throw new ProtocolViolationException(TerminateCause.DDP_UNTAGGED_INVALID_QN,
                    "queue number " + Integer.toUnsignedString(queueNumber)
                            + " is not one of RDMAP's queues 0, 1 and 2 (RFC 5041 section 7.1, RFC 5040 section 4.1)");
        }
        return this;
    }

    /**
     * Reads the fields of a header without judging them: for the copy of a failed segment's
     * header inside a Terminate message, which may be the very header that broke a rule.
     * {@code segmentLength} must cover the header the T bit announces.
     */
    public DdpSegmentHeader readUnchecked(ByteBuffer buffer, int offset, int segmentLength) {
        checkBounds(buffer, offset, segmentLength, segmentLength);
        if (segmentLength < 1
                || segmentLength < DdpConstants.headerLength(NetworkOrder.getUnsignedByte(buffer, offset))) {
            throw new IllegalArgumentException("too few octets for the header: " + segmentLength);
        }
        read(buffer, offset, segmentLength);
        return this;
    }

    private void read(ByteBuffer buffer, int offset, int length) {
        control = NetworkOrder.getUnsignedByte(buffer, offset + CONTROL_OFFSET);
        rsvdUlp = NetworkOrder.getUnsignedByte(buffer, offset + RSVD_ULP_OFFSET);
        segmentLength = length;
        if (tagged()) {
            stag = NetworkOrder.getInt(buffer, offset + STAG_OFFSET);
            taggedOffset = NetworkOrder.getLong(buffer, offset + TAGGED_OFFSET_OFFSET);
            rsvdUlp2 = 0;
            queueNumber = 0;
            messageSequenceNumber = 0;
            messageOffset = 0;
        } else {
            stag = 0;
            taggedOffset = 0;
            rsvdUlp2 = NetworkOrder.getInt(buffer, offset + RSVD_ULP2_OFFSET);
            queueNumber = NetworkOrder.getInt(buffer, offset + QUEUE_NUMBER_OFFSET);
            messageSequenceNumber = NetworkOrder.getInt(buffer, offset + MESSAGE_SEQUENCE_NUMBER_OFFSET);
            messageOffset = NetworkOrder.getInt(buffer, offset + MESSAGE_OFFSET_OFFSET);
        }
    }

    /** Checks that {@code present} octets at {@code offset} lie in the buffer. */
    private static void checkBounds(ByteBuffer buffer, int offset, int present, int segmentLength) {
        if (offset < 0 || segmentLength < 0 || segmentLength > MAX_SEGMENT_LENGTH
                || offset > buffer.limit() - present) {
            throw new IllegalArgumentException("a segment of " + segmentLength + " octets whose first " + present
                    + " are at " + offset + " does not fit a buffer with limit " + buffer.limit()
                    + " or exceeds an MPA ULPDU (" + MAX_SEGMENT_LENGTH + ")");
        }
    }

    /** The DDP control octet as received (T, L, Rsvd, DV). */
    public int controlField() {
        return control;
    }

    public boolean tagged() {
        return (control & TAGGED_FLAG) != 0;
    }

    public boolean last() {
        return (control & LAST_FLAG) != 0;
    }

    /** The 4 reserved bits of the control field, shifted down; ignored on receive (RFC 5041 section 4.1). */
    public int reservedBits() {
        return (control & RESERVED_BITS) >>> 2;
    }

    public int version() {
        return control & VERSION_BITS;
    }

    /** RsvdULP (tagged) or RsvdULP[0:7] (untagged): the octet RDMAP uses as its control field. */
    public int rdmapControl() {
        return rsvdUlp;
    }

    /** Tagged only: the STag of the data sink's tagged buffer. */
    public int stag() {
        return stag;
    }

    /** Tagged only: the tagged offset, an unsigned 64-bit value. */
    public long taggedOffset() {
        return taggedOffset;
    }

    /** Untagged only: RsvdULP[8:39], which RDMAP uses as the Invalidate STag. */
    public int rsvdUlp2() {
        return rsvdUlp2;
    }

    /** Untagged only: the queue number, an unsigned 32-bit value (0, 1 or 2 after {@link #parse}). */
    public int queueNumber() {
        return queueNumber;
    }

    /** Untagged only: the message sequence number, an unsigned 32-bit value that wraps. */
    public int messageSequenceNumber() {
        return messageSequenceNumber;
    }

    /** Untagged only: the message offset, an unsigned 32-bit value. */
    public long messageOffset() {
        return Integer.toUnsignedLong(messageOffset);
    }

    public int headerLength() {
        return DdpConstants.headerLength(control);
    }

    /** The length of the whole segment, header and payload: the MPA ULPDU_Length. */
    public int segmentLength() {
        return segmentLength;
    }

    public int payloadLength() {
        return segmentLength - headerLength();
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("DDP ").append(tagged() ? "tagged" : "untagged")
                .append(last() ? " last" : " more")
                .append(String.format(" rdmap=0x%02x", rsvdUlp));
        if (tagged()) {
            text.append(String.format(" stag=0x%08x to=0x%x", stag, taggedOffset));
        } else {
            text.append(" qn=").append(Integer.toUnsignedString(queueNumber))
                    .append(" msn=").append(Integer.toUnsignedString(messageSequenceNumber))
                    .append(" mo=").append(messageOffset());
        }
        return text.append(" payload=").append(payloadLength()).toString();
    }
}
