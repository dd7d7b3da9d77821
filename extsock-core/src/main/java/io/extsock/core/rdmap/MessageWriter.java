package io.extsock.core.rdmap;

import io.extsock.core.ddp.DdpConstants;
import io.extsock.core.ddp.DdpSegmenter;
import io.extsock.core.mpa.FpduFramer;
import io.extsock.core.mpa.GatherWrite;
import java.nio.ByteBuffer;

/**
 * Writes outgoing RDMAP messages as the FPDUs that carry them: each message is cut into DDP
 * segments that fit the MULPDU (RFC 5041 section 5.2), each segment gets its DDP/RDMAP header
 * (RFC 5040 section 4) and is framed by MPA (RFC 5044 section 4) into a {@link GatherWrite}.
 * Payload octets are never copied: segments reference the application's buffers through
 * views ({@link MessagePayload}).
 *
 * <pre>{@code
 * writer.startSend(RdmapOpcode.SEND, 0, msn, payload, 0, payload.length);
 * while (!writer.writeTo(gather)) {      // false: the gather is full
 *     channel.write(...); gather.reset();
 * }
 * }</pre>
 *
 * One writer per connection direction, used by one thread at a time; a message must be fully
 * written before the next starts.
 */
public final class MessageWriter {

    /** Most buffers one segment's payload can span: the message's gather list length. */
    public static final int PAYLOAD_SLICES_PER_SEGMENT = 32;

    /** Enough for any header this writer emits: 18 untagged + 28 Read Request, or a Terminate. */
    private static final int HEADER_CAPACITY = 128;

    private final FpduFramer framer;
    private final DdpSegmenter segmenter;
    private final ByteBuffer header = ByteBuffer.allocate(HEADER_CAPACITY);
    private final ByteBuffer[] segmentPayload = new ByteBuffer[PAYLOAD_SLICES_PER_SEGMENT];

    private MessagePayload payload;

    private boolean active;
    private boolean segmentPending;
    private boolean singleSegmentHeaderOnly;

    /**
     * @param framer the framer of this direction
     * @param maxUlpduLength the MULPDU: the longest ULPDU one FPDU may carry (see {@link
     *     FpduFramer#maxUlpduLength})
     */
    public MessageWriter(FpduFramer framer, int maxUlpduLength) {
        this.framer = framer;
        this.segmenter = new DdpSegmenter(maxUlpduLength);
    }

    /** The longest ULPDU one FPDU carries. */
    public int maxUlpduLength() {
        return segmenter.maxSegmentLength();
    }

    /**
     * Starts a Send variant (RFC 5040 section 5.3) of the octets remaining in {@code
     * payload[offset .. offset + count)}.
     *
     * @param invalidateStag the peer's STag to invalidate, for the Invalidate variants; else 0
     */
    public void startSend(RdmapOpcode variant, int invalidateStag, int messageSequenceNumber,
                          ByteBuffer[] payload, int offset, int count) {
        startSend(variant, invalidateStag, messageSequenceNumber, buffers(payload, offset, count));
    }

    /** Starts a Send variant of the payload's octets. */
    public void startSend(RdmapOpcode variant, int invalidateStag, int messageSequenceNumber, MessagePayload payload) {
        if (!variant.isSend()) {
            throw new IllegalArgumentException(variant + " is not a Send variant");
        }
        if (!variant.invalidatesStag() && invalidateStag != 0) {
            throw new IllegalArgumentException(variant + " invalidates nothing; its Invalidate STag is 0");
        }
        begin(payload);
        segmenter.startUntagged(RdmapConstants.controlField(variant), invalidateStag, DdpConstants.QN_SEND,
                messageSequenceNumber, totalLength());
    }

    /** Starts an RDMA Write (RFC 5040 section 5.1) to the peer's STag and tagged offset. */
    public void startWrite(int sinkStag, long sinkTaggedOffset, ByteBuffer[] payload, int offset, int count) {
        startWrite(sinkStag, sinkTaggedOffset, buffers(payload, offset, count));
    }

    /** Starts an RDMA Write of the payload's octets. */
    public void startWrite(int sinkStag, long sinkTaggedOffset, MessagePayload payload) {
        begin(payload);
        segmenter.startTagged(RdmapConstants.controlField(RdmapOpcode.RDMA_WRITE), sinkStag, sinkTaggedOffset,
                totalLength());
    }

    /** Starts an RDMA Read Response (RFC 5040 section 5.2) to the requester's sink. */
    public void startReadResponse(int sinkStag, long sinkTaggedOffset, ByteBuffer[] payload, int offset, int count) {
        startReadResponse(sinkStag, sinkTaggedOffset, buffers(payload, offset, count));
    }

    /** Starts an RDMA Read Response of the payload's octets. */
    public void startReadResponse(int sinkStag, long sinkTaggedOffset, MessagePayload payload) {
        begin(payload);
        segmenter.startTagged(RdmapConstants.controlField(RdmapOpcode.RDMA_READ_RESPONSE), sinkStag,
                sinkTaggedOffset, totalLength());
    }

    /** Starts an RDMA Read Request (RFC 5040 sections 4.4 and 5.2): one segment, no payload. */
    public void startReadRequest(int messageSequenceNumber, ReadRequestHeader request) {
        beginHeaderOnly();
        RdmapHeaderEncoder.putRdmaReadRequest(header, messageSequenceNumber, request);
        header.flip();
    }

    /** Starts a Terminate (RFC 5040 sections 4.8 and 5.4): one segment, no payload. */
    public void startTerminate(int messageSequenceNumber, TerminateHeader terminate) {
        beginHeaderOnly();
        RdmapHeaderEncoder.putTerminate(header, messageSequenceNumber, terminate);
        header.flip();
    }

    /**
     * Gives up the message under way, whose rest cannot be framed (its source failed): the
     * writer is idle again, for a Terminate. What was framed of it stays framed: whole FPDUs.
     */
    public void abandon() {
        finish();
        segmentPending = false;
    }

    /** Whether a message is started and not yet fully written. */
    public boolean inProgress() {
        return active;
    }

    /**
     * Frames as many of the current message's segments as fit into {@code out}.
     *
     * @return true when the whole message is framed; false when {@code out} is full (write it
     *     out, reset it, call again)
     */
    public boolean writeTo(GatherWrite out) {
        return writeTo(out, Integer.MAX_VALUE);
    }

    /**
     * Frames at most {@code maxSegments} of the current message's segments into {@code out}:
     * to interleave messages fairly, or to put each FPDU in a write of its own.
     *
     * @return true when the whole message is framed
     */
    public boolean writeTo(GatherWrite out, int maxSegments) {
        if (!active) {
            throw new IllegalStateException("no message started");
        }
        if (singleSegmentHeaderOnly) {
            if (!framer.frame(header, (ByteBuffer) null, out)) {
                return false;
            }
            finish();
            return true;
        }
        for (int framed = 0; framed < maxSegments; framed++) {
            if (!segmentPending) {
                segmenter.next();  // a started message always has a segment left here
                header.clear();
                segmenter.putHeader(header);
                header.flip();
                segmentPending = true;
            }
            int slices = sliceSegmentPayload(segmenter.payloadOffset(), segmenter.payloadLength());
            if (!framer.frame(header, segmentPayload, 0, slices, out)) {
                return false;
            }
            segmentPending = false;
            if (segmenter.last()) {
                finish();
                return true;
            }
        }
        return false;
    }

    private void begin(MessagePayload payload) {
        requireIdle();
        if (payload.pieces() > PAYLOAD_SLICES_PER_SEGMENT) {
            throw new IllegalArgumentException(payload.pieces() + " payload pieces, at most "
                    + PAYLOAD_SLICES_PER_SEGMENT);
        }
        this.payload = payload;
        active = true;
        segmentPending = false;
        singleSegmentHeaderOnly = false;
    }

    private void beginHeaderOnly() {
        requireIdle();
        payload = MessagePayload.EMPTY;
        header.clear();
        active = true;
        segmentPending = false;
        singleSegmentHeaderOnly = true;
    }

    private void requireIdle() {
        if (active) {
            throw new IllegalStateException("the previous message is not fully written yet");
        }
    }

    private void finish() {
        active = false;
        payload = MessagePayload.EMPTY;
    }

    private long totalLength() {
        long total = 0;
        for (int i = 0; i < payload.pieces(); i++) {
            total += payload.length(i);
        }
        return total;
    }

    /**
     * Fills {@link #segmentPayload} with views of message octets [from, from + length) and
     * returns how many.
     */
    private int sliceSegmentPayload(long from, int length) {
        int slices = 0;
        long pieceStart = 0;
        long end = from + length;
        for (int i = 0; i < payload.pieces() && pieceStart < end; i++) {
            int pieceLength = payload.length(i);
            long pieceEnd = pieceStart + pieceLength;
            if (pieceEnd > from && pieceLength > 0) {
                int first = (int) Math.max(0, from - pieceStart);
                int last = (int) Math.min(pieceLength, end - pieceStart);
                segmentPayload[slices++] = payload.view(i, first, last);
            }
            pieceStart = pieceEnd;
        }
        return slices;
    }

    /** A payload given as buffers. */
    private MessagePayload buffers(ByteBuffer[] buffers, int offset, int count) {
        return MessagePayload.of(buffers, offset, count);
    }
}
