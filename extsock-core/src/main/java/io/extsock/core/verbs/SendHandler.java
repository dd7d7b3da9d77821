package io.extsock.core.verbs;

import io.extsock.core.ddp.DdpReceiveBookkeeping;
import io.extsock.core.mpa.MpaRole;
import io.extsock.core.mpa.RtrKind;
import io.extsock.core.rdmap.RdmapSegmentHeader;
import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.WorkOpcode;
import java.nio.ByteBuffer;

/**
 * The Send family (RFC 5040 section 4.3: Send, with Invalidate, with Solicited Event, with
 * both): untagged, into the head of the receive queue. A segment that falls within one
 * scatter slice goes straight there; one that straddles slices goes through a bounce buffer
 * (the one copy on this path). The last segment completes the Receive, after invalidating the
 * STag a Send with Invalidate names (RFC 5040 section 5.3).
 */
final class SendHandler implements OpcodeHandler {

    private final QueuePair qp;
    private final WorkQueues queues;
    private final DdpReceiveBookkeeping bookkeeping;
    /** Filled for each Receive this side completes (the receive lock holder's alone). */
    private final CompletionRecord completion = new CompletionRecord();
    /**
     * The Receive being filled. Written under the queue pair's lock (called back by {@link
     * WorkQueues}), so that the flush (under the lock) knows it; never changed by the flush,
     * which leaves this entry out of the pool: a segment being placed into it on another thread
     * keeps a consistent scatter list.
     */
    private ReceiveWork receiving;
    /** The Receive the last Send completed: its completer and tag, taken before its entry went back to the pool. */
    private WorkCompleter filledCompleter;
    private long filledTag;
    /** RFC 6581: the initiator's zero-length Send RTR, which consumes no Receive. */
    private boolean rtrExpected;
    private ByteBuffer bounce;
    private long bounceOffset;

    SendHandler(QueuePair qp, WorkQueues queues, DdpReceiveBookkeeping bookkeeping) {
        this.qp = qp;
        this.queues = queues;
        this.bookkeeping = bookkeeping;
        this.rtrExpected = qp.agreement.role() == MpaRole.RESPONDER && qp.agreement.rtr().isPresent()
                && qp.agreement.rtr().get() == RtrKind.ZERO_LENGTH_SEND;
    }

    /** The capacity of the buffer the next Send goes to (0 for the RTR), or -1 for none. */
    long bufferCapacity() {
        if (rtrExpected) {
            return 0;
        }
        return receiving != null ? receiving.capacity : -1;
    }

    /** The Receive being filled, or null. */
    ReceiveWork receiving() {
        return receiving;
    }

    /**
     * A new Send starts (before DDP's checks, which ask its capacity): it takes the receive
     * queue's {@code head}. Under the queue pair's lock (the receive side's turn at the segment's start).
     */
    void messageStarting(ReceiveWork head) {
        receiving = rtrExpected ? null : head;
    }

    /**
     * The Send completed and {@code done} (null: flushed meanwhile) left the receive queue; its
     * entry goes back to the pool once this returns. Under the queue pair's lock.
     */
    void receiveTaken(ReceiveWork done) {
        receiving = null;
        filledCompleter = done != null ? done.completer : null;
        filledTag = done != null ? done.tag : 0;
    }

    @Override
    public ByteBuffer segmentStarted(RdmapSegmentHeader header) {
        long messageOffset = header.ddp().messageOffset();
        int length = header.ulpPayloadLength();
        ReceiveWork receiving = this.receiving;
        if (length == 0 || receiving == null) {
            return null;
        }
        // Straight into the scatter slice that holds the segment; one that spans slices goes
        // through a bounce buffer (a copy, only for segments that straddle slices).
        ByteBuffer window = receiving.placementWithin(messageOffset, length, false);
        if (window != null) {
            return window;
        }
        if (messageOffset >= receiving.capacity) {
            throw new IllegalStateException("DDP admitted a Send longer than its receive buffer");
        }
        bounce = ByteBuffer.allocate(length);
        bounceOffset = messageOffset;
        return bounce;
    }

    /**
     * Where a Send's segment would go by headers not yet checked, if that is a stream's receive
     * buffer (a piece that is a plain buffer: the engine's own, read by nothing before the
     * Receive completes): the Receive being filled, or for a segment at offset 0 the queue's
     * head, which {@link #messageStarting} would take. Null for the application's memory, a
     * segment that straddles pieces, or anything out of bounds. Changes no state but that
     * buffer's window, which {@link #segmentStarted} sets the same way.
     */
    ByteBuffer speculativeDestination(RdmapSegmentHeader unverified) {
        long messageOffset = unverified.ddp().messageOffset();
        int length = unverified.ulpPayloadLength();
        if (length <= 0 || messageOffset < 0 || !qp.hasInternalReceives()) {
            return null;  // a connection without a stream never has a buffer of the engine's own
        }
        if (messageOffset != 0) {
            ReceiveWork filling = receiving;  // the receive lock holder's alone
            return filling != null ? filling.placementWithin(messageOffset, length, true) : null;
        }
        // The head is the queue pair's until the segment takes it: an end on another thread
        // recycles queued entries under the lock, so it is looked at under the lock.
        return rtrExpected ? null : queues.headReceivePlacement(length);
    }

    @Override
    public void segmentPlaced(RdmapSegmentHeader header) {
        if (bounce != null) {
            if (queues.isConnected()) {
                scatterBounce();
            }
            bounce = null;  // else flushed while the segment came in: its Receive is the application's again
        }
    }

    private void scatterBounce() {
        ReceiveWork receiving = this.receiving;
        bounce.flip();
        long skip = bounceOffset;
        for (int i = 0; i < receiving.pieces() && bounce.hasRemaining(); i++) {
            int pieceLength = receiving.length(i);
            if (skip >= pieceLength) {
                skip -= pieceLength;
                continue;
            }
            int count = Math.min(bounce.remaining(), pieceLength - (int) skip);
            ByteBuffer part = bounce.duplicate().limit(bounce.position() + count);
            receiving.placement(i, (int) skip, count).put(part);
            bounce.position(bounce.position() + count);
            skip = 0;
        }
    }

    @Override
    public void messageComplete(RdmapSegmentHeader header) throws ProtocolViolationException {
        long length = bookkeeping.untagged().completedMessageLength();
        if (rtrExpected) {
            rtrExpected = false;  // the RTR: consumed no receive and tells nobody
            return;
        }
        // The Receive leaves the queue and goes back to the pool in one turn of the lock: what
        // its completion needs is taken out first (receiveTaken).
        queues.receiveFilled(this);
        WorkCompleter completer = filledCompleter;
        long tag = filledTag;
        filledCompleter = null;
        int invalidated = 0;
        if (header.opcode().invalidatesStag()) {
            invalidated = header.invalidateStag();
            TerminateCause refused = qp.registry.invalidate(invalidated);
            if (refused != null) {
                complete(completer, completion.set(tag, WorkOpcode.RECEIVE, CompletionStatus.REMOTE_OPERATION_ERROR,
                        length, false, 0, String.format("the peer's Send with Invalidate named STag 0x%08x, which"
                                + " cannot be invalidated", invalidated),
                        CompletionCause.terminateSent(refused.layer().wireValue(), refused.errorType(),
                                refused.errorCode())));
                throw new ProtocolViolationException(refused, String.format(
                        "Send with Invalidate of STag 0x%08x, which this connection cannot invalidate", invalidated));
            }
        }
        complete(completer, completion.set(tag, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, length,
                header.opcode().solicitedEvent(), invalidated, null, CompletionCause.NONE));
    }

    /** Completes a Receive back in the pool (null: flushed), outside the lock: the completer may take its own. */
    private void complete(WorkCompleter completer, CompletionRecord record) {
        if (completer == null) {
            return;
        }
        qp.counters.completed(record.status());
        completer.complete(record);
    }
}
