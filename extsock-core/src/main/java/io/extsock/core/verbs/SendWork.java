package io.extsock.core.verbs;

import io.extsock.core.rdmap.MessagePayload;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.WorkOpcode;
import java.nio.ByteBuffer;

/**
 * One entry of a connection's send queue: a Send, an RDMA Write or an RDMA Read, copied from
 * the application's request when it was posted (or made by the stream layer). Entries are
 * pooled and reused; all fields belong to the queue pair's lock until the entry is framed.
 *
 * <p>The payload of a Send or Write is a gather list of pieces, each a range of a registered
 * region (viewed through the region's pooled views while framed: no allocation) or, for the
 * engine's own stream, a plain buffer.
 */
final class SendWork implements MessagePayload {

    WorkOpcode opcode;
    long tag;
    WorkCompleter completer;

    private final WorkPieces pieces = new WorkPieces();
    long length;
    /** Where region views lent for framing are recorded until the write went out. */
    LentViews lentViews;

    /** Send variants: Solicited Event, Invalidate of the peer's STag. */
    boolean solicited;
    boolean invalidate;
    int invalidateStag;

    /** Write: the peer's STag and tagged offset. Read: the peer's source. */
    int remoteStag;
    long remoteOffset;

    /** Read: the local sink, a range of a region (its STag goes in the Read Request). */
    RegisteredRegion sinkRegion;
    long sinkOffset;

    /** Whether a piece is a file region's: framing then holds the regions (see {@link #holdFileRegions}). */
    private boolean fromFile;

    /** Set once the request finished; its completion waits for those posted before it. */
    boolean done;
    CompletionStatus status;
    String detail;
    CompletionCause cause = CompletionCause.NONE;

    /** Adds a piece: {@code length} octets of the region from {@code offset}. */
    void addPiece(RegisteredRegion region, long offset, int length) {
        pieces.add(region, offset, length);
        this.length += length;
        fromFile |= region.isFile();
    }

    /**
     * Holds each file region a piece reads from while this message is framed, so that its
     * deregistration waits until the message went out rather than closing the file under it (a
     * memory region's buffer outlives deregistration; a file region's channel does not).
     * Transmit side only.
     *
     * @return null, or the region found deregistered before framing began (then nothing is held)
     */
    RegisteredRegion holdFileRegions() {
        if (!fromFile) {
            return null;
        }
        for (int i = 0; i < pieces.count(); i++) {
            RegisteredRegion region = pieces.region(i);
            if (region != null && region.isFile() && !region.holdForTransmit()) {
                releaseFileRegions(i);
                return region;
            }
        }
        return null;
    }

    /** The message's last octets are in the gathering write: its holds go once that write is done. */
    void releaseFileRegionsAfterWrite() {
        if (!fromFile) {
            return;
        }
        for (int i = 0; i < pieces.count(); i++) {
            RegisteredRegion region = pieces.region(i);
            if (region != null && region.isFile()) {
                lentViews.releaseHoldAfterWrite(region);
            }
        }
    }

    /** The file regions a piece of those before {@code end} held, released now (nothing of them was framed). */
    private void releaseFileRegions(int end) {
        for (int i = 0; i < end; i++) {
            RegisteredRegion region = pieces.region(i);
            if (region != null && region.isFile()) {
                region.releaseTransmitHold();
            }
        }
    }

    /** Adds a piece: the buffer's remaining octets (the engine's own stream). */
    void addPiece(ByteBuffer buffer) {
        this.length += buffer.remaining();
        pieces.add(buffer);
    }

    @Override
    public int pieces() {
        return pieces.count();
    }

    @Override
    public int length(int piece) {
        return pieces.length(piece);
    }

    @Override
    public ByteBuffer view(int piece, int from, int to) {
        RegisteredRegion region = pieces.region(piece);
        if (region != null) {
            return lentViews.lend(region, pieces.offset(piece) + from, to - from);
        }
        // Segments are framed in order: the view that ends the piece is the last one asked for,
        // so it may be the buffer itself (the earlier ones, still in the gather, are their own).
        if (to == pieces.length(piece)) {
            return pieces.bufferWindow(piece, from, to);
        }
        return pieces.bufferView(piece, from, to);
    }

    /** Marks the entry finished; the queue pair reports it in send-queue order. */
    void finish(CompletionStatus status, String detail, CompletionCause cause) {
        this.done = true;
        this.status = status;
        this.detail = detail;
        this.cause = cause;
    }

    void clear() {
        pieces.clear();
        completer = null;
        sinkRegion = null;
        lentViews = null;
        length = 0;
        solicited = false;
        invalidate = false;
        invalidateStag = 0;
        remoteStag = 0;
        remoteOffset = 0;
        sinkOffset = 0;
        fromFile = false;
        done = false;
        status = null;
        detail = null;
        cause = CompletionCause.NONE;
    }
}
