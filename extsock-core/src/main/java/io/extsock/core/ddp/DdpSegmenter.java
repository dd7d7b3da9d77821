package io.extsock.core.ddp;

import static io.extsock.core.ddp.DdpConstants.MAX_MESSAGE_LENGTH;
import static io.extsock.core.ddp.DdpConstants.MAX_SEGMENT_LENGTH;
import static io.extsock.core.ddp.DdpConstants.TAGGED_HEADER_LENGTH;
import static io.extsock.core.ddp.DdpConstants.UNTAGGED_HEADER_LENGTH;

import java.nio.ByteBuffer;

/**
 * Splits one outgoing DDP message into segments that each fit the MULPDU, the largest segment
 * (header and payload) the LLP takes (RFC 5041 section 5.2). One instance is reused for every
 * message; iterating allocates nothing:
 *
 * <pre>{@code
 * segmenter.startUntagged(rdmapControl, 0, QN_SEND, msn, length);
 * while (segmenter.next()) {
 *     segmenter.putHeader(headerBuffer);
 *     // payload: message bytes [payloadOffset(), payloadOffset() + payloadLength())
 * }
 * }</pre>
 *
 * Rules it follows: every segment but the last is filled to the MULPDU; L is set on the last
 * segment only (RFC 5041 section 4.1); a zero-length message is exactly one segment
 * (section 5.2); tagged segments carry the message's STag and a TO that advances by each
 * segment's payload (section 5.2); untagged segments carry the message's QN and MSN and an MO
 * that counts payload octets from 0 (sections 4.3 and 5.2).
 */
public final class DdpSegmenter {

    private final int maxSegmentLength;

    private boolean tagged;
    private int rdmapControl;
    private int stag;
    private long initialTaggedOffset;
    private int rsvdUlp2;
    private int queueNumber;
    private int messageSequenceNumber;
    private long messageLength;
    private int maxPayload;

    private boolean active;
    private long nextOffset;
    private long payloadOffset;
    private int payloadLength;
    private boolean last;

    /**
     * @param maxSegmentLength the MULPDU: the largest DDP segment, header included, that may be
     *     sent (at most 65535, the largest MPA ULPDU)
     */
    public DdpSegmenter(int maxSegmentLength) {
        if (maxSegmentLength <= TAGGED_HEADER_LENGTH || maxSegmentLength > MAX_SEGMENT_LENGTH) {
            throw new IllegalArgumentException("MULPDU must leave room for payload and fit an MPA ULPDU: "
                    + maxSegmentLength);
        }
        this.maxSegmentLength = maxSegmentLength;
    }

    /** Begins a tagged message of {@code messageLength} octets placed at {@code taggedOffset}. */
    public DdpSegmenter startTagged(int rdmapControl, int stag, long taggedOffset, long messageLength) {
        checkLength(messageLength);
        if (messageLength > 0 && Long.compareUnsigned(taggedOffset + messageLength, taggedOffset) <= 0) {
            throw new IllegalArgumentException("tagged offset wraps 2^64: TO=" + Long.toUnsignedString(taggedOffset)
                    + " length=" + messageLength);
        }
        begin(true, rdmapControl, messageLength, TAGGED_HEADER_LENGTH);
        this.stag = stag;
        this.initialTaggedOffset = taggedOffset;
        return this;
    }

    /**
     * Begins an untagged message. {@code rsvdUlp2} is RsvdULP[8:39], the STag to invalidate for
     * RDMAP's invalidate variants and zero otherwise.
     */
    public DdpSegmenter startUntagged(int rdmapControl, int rsvdUlp2, int queueNumber, int messageSequenceNumber,
            long messageLength) {
        checkLength(messageLength);
        if (maxSegmentLength <= UNTAGGED_HEADER_LENGTH) {
            throw new IllegalArgumentException("MULPDU " + maxSegmentLength + " leaves no room for untagged payload");
        }
        begin(false, rdmapControl, messageLength, UNTAGGED_HEADER_LENGTH);
        this.rsvdUlp2 = rsvdUlp2;
        this.queueNumber = queueNumber;
        this.messageSequenceNumber = messageSequenceNumber;
        return this;
    }

    private void begin(boolean tagged, int rdmapControl, long messageLength, int headerLength) {
        if ((rdmapControl & ~0xFF) != 0) {
            throw new IllegalArgumentException("RsvdULP octet out of range: " + rdmapControl);
        }
        this.tagged = tagged;
        this.rdmapControl = rdmapControl;
        this.messageLength = messageLength;
        this.maxPayload = maxSegmentLength - headerLength;
        this.active = true;
        this.nextOffset = 0;
        this.last = false;
        this.payloadLength = 0;
    }

    private static void checkLength(long messageLength) {
        if (messageLength < 0 || messageLength > MAX_MESSAGE_LENGTH) {
            throw new IllegalArgumentException("a ULP message is shorter than 2^32 octets (RFC 5041 section 5.2): "
                    + messageLength);
        }
    }

    /** Moves to the next segment of the current message; false once the last one was visited. */
    public boolean next() {
        if (!active || last) {
            active = false;
            return false;
        }
        payloadOffset = nextOffset;
        long remaining = messageLength - payloadOffset;
        payloadLength = (int) Math.min(remaining, maxPayload);
        nextOffset = payloadOffset + payloadLength;
        last = nextOffset == messageLength;
        return true;
    }

    /** Writes the current segment's header at the buffer's position and advances it. */
    public void putHeader(ByteBuffer dst) {
        if (!active) {
            throw new IllegalStateException("no current segment: call next() first");
        }
        if (tagged) {
            DdpHeaderEncoder.putTagged(dst, last, rdmapControl, stag, taggedOffset());
        } else {
            DdpHeaderEncoder.putUntagged(dst, last, rdmapControl, rsvdUlp2, queueNumber, messageSequenceNumber,
                    payloadOffset);
        }
    }

    /** Where the current segment's payload starts within the message. */
    public long payloadOffset() {
        return payloadOffset;
    }

    public int payloadLength() {
        return payloadLength;
    }

    /** Whether the current segment is the last of its message (its L bit). */
    public boolean last() {
        return last;
    }

    public boolean tagged() {
        return tagged;
    }

    public int headerLength() {
        return tagged ? TAGGED_HEADER_LENGTH : UNTAGGED_HEADER_LENGTH;
    }

    /** Header plus payload of the current segment: the MPA ULPDU_Length to send. */
    public int segmentLength() {
        return headerLength() + payloadLength;
    }

    /** Tagged only: the TO of the current segment's first payload octet. */
    public long taggedOffset() {
        return initialTaggedOffset + payloadOffset;
    }

    /** Untagged only: the MO of the current segment. */
    public long messageOffset() {
        return payloadOffset;
    }

    public int maxSegmentLength() {
        return maxSegmentLength;
    }
}
