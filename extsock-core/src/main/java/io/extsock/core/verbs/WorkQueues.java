package io.extsock.core.verbs;

import io.extsock.core.mpa.MpaAgreement;
import io.extsock.core.rdmap.MessageWriter;
import io.extsock.core.rdmap.ReadRequestHeader;
import io.extsock.core.rdmap.TerminateHeader;
import io.extsock.core.terminate.TerminateCause;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.WorkOpcode;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * What a queue pair's posting threads, its transmit side and its receive side share: the {@link
 * SendQueue}, the {@link ReceiveQueue}, the peer's Reads waiting for their response ({@link
 * InboundReads}), the {@link TransmitOrder}, and the connection's state. One lock guards it all
 * and only this class takes it: each method is one brief turn of it, and no payload is copied
 * under it. Where a side must act inside a turn (start the message picked, take the Receive a
 * Send goes into), it is called back under the lock.
 */
final class WorkQueues {

    private static final System.Logger LOG = System.getLogger(QueuePair.class.getName());

    private final Object lock = new Object();
    private final MemoryRegistry registry;
    private final QueuePair.Driver driver;
    private final ConnectionCounters counters;
    /** Asked, when the connection ends, which Receive a Send is being placed into. */
    private ReceiveSide receiveSide;

    private final WorkPools pools = new WorkPools(16);
    /** Filled for each completion delivered under the lock (send queue, flushes). */
    private final CompletionRecord completionUnderLock = new CompletionRecord();
    private final SendQueue sends;
    private final ReceiveQueue receives;
    /** Set once the stream posts its first Receive ({@link #hasInternalReceives}). */
    private volatile boolean internalReceives;
    private final InboundReads inboundReads = new InboundReads();
    private final TransmitOrder order;
    private QueuePairState state = QueuePairState.CONNECTED;
    private String failure;
    /** Why the connection ended, as a value, or null while it runs. */
    private CompletionCause failureCause;

    /** @param waiting the engine's wait, which the region fence waits through (never under this lock) */
    WorkQueues(MpaAgreement agreement, MemoryRegistry registry, QueuePair.Driver driver, ConnectionCounters counters,
               InlineWait waiting) {
        this.registry = registry;
        this.driver = driver;
        this.counters = counters;
        this.sends = new SendQueue(pools, counters, completionUnderLock, agreement.ord());
        this.receives = new ReceiveQueue(pools, counters, completionUnderLock);
        this.order = new TransmitOrder(agreement, sends, inboundReads);
        registry.fence().attach(waiting, lock);
    }

    /** The receive side, which the end asks for the Receive being filled; set once, before any traffic. */
    void attach(ReceiveSide receiveSide) {
        this.receiveSide = receiveSide;
    }

    // ---- posting (any thread) -----------------------------------------------------------

    SendWork newSendWork() {
        synchronized (lock) {
            return pools.takeSend();
        }
    }

    ReceiveWork newReceiveWork() {
        synchronized (lock) {
            return pools.takeReceive();
        }
    }

    /** Queues a request (or refuses it and recycles its entry); with {@code transmitNow} false it waits. */
    void postSend(SendWork work, boolean transmitNow) throws QueuePairClosedException {
        synchronized (lock) {
            try {
                requireRoom(1, 0);
            } catch (QueuePairClosedException | IllegalStateException refused) {
                pools.recycle(work);
                throw refused;
            }
            sends.add(work);
        }
        if (transmitNow) {
            driver.transmitPending();
        }
    }

    void postReceive(ReceiveWork work) throws QueuePairClosedException {
        synchronized (lock) {
            try {
                requireRoom(0, 1);
            } catch (QueuePairClosedException | IllegalStateException refused) {
                pools.recycle(work);
                throw refused;
            }
            receives.add(work);
        }
    }

    /** A posting list, whole or not at all: no other post comes between the check for room and its last request. */
    void postTogether(int sendCount, int receiveCount, QueuePair.ListPosting posting) throws IOException {
        synchronized (lock) {
            requireRoom(sendCount, receiveCount);  // the connection's state first
            posting.queueAll();  // its posts take the lock again, reentrantly
        }
    }

    /** One turn of the lock for taking the entry and queuing it: this runs for every stream write. */
    void postInternalSend(ByteBuffer header, ByteBuffer payload, long tag, WorkCompleter completer,
                          boolean transmitNow) throws QueuePairClosedException {
        synchronized (lock) {
            requireRoom(1, 0);
            SendWork work = pools.takeSend();
            work.opcode = WorkOpcode.SEND;
            work.tag = tag;
            work.completer = completer;
            work.addPiece(header);
            if (payload != null) {
                work.addPiece(payload);
            }
            sends.add(work);
        }
        if (transmitNow) {
            driver.transmitPending();
        }
    }

    void postInternalReceive(ByteBuffer buffer, long tag, WorkCompleter completer) throws QueuePairClosedException {
        synchronized (lock) {  // one turn of the lock, as for postInternalSend
            requireRoom(0, 1);
            ReceiveWork work = pools.takeReceive();
            work.tag = tag;
            work.completer = completer;
            work.addPiece(buffer);
            receives.add(work);
            internalReceives = true;
        }
    }

    /** That {@code sendCount} send-queue requests and {@code receiveCount} Receives may be posted now, all of them. */
    private void requireRoom(int sendCount, int receiveCount) throws QueuePairClosedException {
        if (state != QueuePairState.CONNECTED) {
            throw new QueuePairClosedException(failure);
        }
        sends.requireRoom(sendCount);
        receives.requireRoom(receiveCount);
    }

    /** Read without the lock: a stale false only means one Send goes the usual way. */
    boolean hasInternalReceives() {
        return internalReceives;
    }

    // ---- the connection's state ---------------------------------------------------------

    boolean isConnected() {
        synchronized (lock) {
            return state == QueuePairState.CONNECTED;
        }
    }

    String failure() {
        synchronized (lock) {
            return failure;
        }
    }

    boolean endedByOurTerminate() {
        synchronized (lock) {
            return failureCause != null && failureCause.origin() == CompletionCause.Origin.TERMINATE_SENT;
        }
    }

    boolean settled() {
        synchronized (lock) {
            return sends.outstanding() == 0;
        }
    }

    /** A hint, read without the lock. */
    boolean readyToReceivePending() {
        return order.readyToReceivePending();
    }

    /** For tests: our RDMA Reads on the wire. */
    int readsOutstanding() {
        synchronized (lock) {
            return sends.readsOutstanding();
        }
    }

    /** For tests: the peer's Reads accepted and not yet answered. */
    int responsesWaiting() {
        synchronized (lock) {
            return inboundReads.size();
        }
    }

    // ---- the transmit side's turns (the holder of the transmit lock) --------------------

    boolean hasTransmitWork(MessageWriter writer) {
        synchronized (lock) {
            return order.hasWork(writer, state == QueuePairState.CONNECTED);
        }
    }

    boolean onlyReadyToReceivePending(MessageWriter writer) {
        synchronized (lock) {
            return order.onlyReadyToReceivePending(writer);
        }
    }

    /** Picks the next message and has {@code tx} start it ({@link TransmitOrder#startNext}). */
    boolean startNextMessage(TransmitSide tx) {
        synchronized (lock) {
            return order.startNext(tx, state == QueuePairState.CONNECTED);
        }
    }

    /** The message under way is framed ({@link TransmitOrder#messageFramed}); the next starts in the same turn. */
    boolean messageFramedAndStartNext(InboundRead response, SendWork request, TransmitSide tx) {
        synchronized (lock) {
            order.messageFramed(response, request, state == QueuePairState.CONNECTED);
            return order.startNext(tx, state == QueuePairState.CONNECTED);
        }
    }

    /**
     * The message under way lost its source ({@link TransmitSide#sourceUnreadable}): a Terminate
     * goes next, {@code culprit} (if a request) completing LOCAL_OPERATION_ERROR; once the
     * connection has ended anyway, the message is only dropped.
     */
    boolean sourceUnreadable(SendWork culprit, InboundRead response, String problem, TransmitSide tx) {
        synchronized (lock) {
            order.messageDropped(response, culprit);
            if (state == QueuePairState.CONNECTED) {
                endWithTerminate(TerminateCause.RDMAP_LOCAL_CATASTROPHIC, "terminated by this side: " + problem,
                        culprit, CompletionStatus.LOCAL_OPERATION_ERROR);
            } else if (culprit != null && !culprit.done) {
                culprit.finish(CompletionStatus.FLUSHED, failure, failureCause);
                sends.deliverCompletions();
            }
            return order.startNext(tx, state == QueuePairState.CONNECTED);
        }
    }

    /**
     * A Read Response's source failed its check just before framing (called back from {@link
     * #startNextMessage}, under the lock): a Terminate goes instead, and the connection ends.
     */
    void readResponseRefused(InboundRead read, TerminateCause refused, String reason) {
        synchronized (lock) {
            inboundReads.release(read);
            endWithTerminate(refused, reason, null, null);
        }
    }

    /** The gathering write went out whole: its requests complete. Whether it carried our Terminate. */
    boolean transmitted() {
        synchronized (lock) {
            sends.gatherDone(CompletionStatus.SUCCESS, null, CompletionCause.NONE);
            return order.terminateWentOut();
        }
    }

    /** The gathering write will not go out whole: the requests whose last bytes were in it are flushed. */
    void transmitAborted(String reason) {
        synchronized (lock) {
            sends.gatherDone(CompletionStatus.FLUSHED, reason != null ? reason : failure,
                    failureCause != null ? failureCause : CompletionCause.CONNECTION_LOST);
        }
    }

    // ---- the receive side's turns (the holder of the receive lock) ----------------------

    /**
     * The receive side's one turn per segment: a segment lets a responder send (RFC 5044
     * section 7.1); the answer is whether the connection still runs; and while it does, a Send's
     * first segment ({@code startingSend} not null) takes the Receive at the queue's head.
     */
    boolean segmentArriving(SendHandler startingSend) {
        boolean opened;
        boolean connected;
        synchronized (lock) {
            opened = order.segmentArrived();
            connected = state == QueuePairState.CONNECTED;
            if (connected && startingSend != null) {
                startingSend.messageStarting(receives.head());
            }
        }
        if (opened) {
            driver.transmitPending();
        }
        return connected;
    }

    /** Where the head Receive would take {@code length} octets at offset 0 (an end recycles queued entries). */
    ByteBuffer headReceivePlacement(int length) {
        synchronized (lock) {
            ReceiveWork head = state != QueuePairState.CONNECTED ? null : receives.head();
            return head != null ? head.placementWithin(0, length, true) : null;
        }
    }

    /**
     * A Send's last segment: its Receive leaves the queue and goes back to the pool in one turn
     * of the lock; {@code filler} takes what the completion needs first (null: flushed meanwhile).
     */
    void receiveFilled(SendHandler filler) {
        synchronized (lock) {
            ReceiveWork done = state == QueuePairState.CONNECTED ? receives.removeHead() : null;
            filler.receiveTaken(done);
            if (done != null) {
                receives.recycle(done);
            }
        }
    }

    /** RFC 5040 section 5.2: whether another Read Request may be accepted, at most {@code limit} at once (IRD). */
    boolean inboundReadSlotFree(int limit) {
        synchronized (lock) {
            return inboundReads.slotFree(limit);
        }
    }

    void claimInboundReadSlot() {
        synchronized (lock) {
            inboundReads.claimSlot();
        }
    }

    /** Queues an accepted Read Request's response; the transmit side checks its source again when it frames it. */
    void queueReadResponse(ReadRequestHeader accepted) {
        synchronized (lock) {
            inboundReads.add(accepted);
        }
        driver.transmitPending();
    }

    /** A Read Response's first segment: {@code handler} binds it to the oldest outstanding Read (null: none). */
    void bindOldestRead(ReadResponseHandler handler) {
        synchronized (lock) {
            handler.bind(sends.oldestRead());
        }
    }

    /**
     * A Read Response's last segment: the oldest outstanding Read, {@code done}, leaves the wire
     * and {@code handler} finishes it, {@code sink} filled; then a Read waiting for ORD room may
     * go. Nothing if the connection ended meanwhile: the flush completed it.
     */
    void readResponded(SendWork done, RegisteredRegion sink, ReadResponseHandler handler) {
        synchronized (lock) {
            if (state != QueuePairState.CONNECTED) {
                return;
            }
            SendWork head = sends.removeOldestRead();
            if (head != done) {
                throw new IllegalStateException("the Read Response was bound to " + done
                        + " but the oldest outstanding Read is " + head);
            }
            handler.finish(done, sink);
            sends.deliverCompletions();
        }
        driver.transmitPending();
    }

    // ---- the end ------------------------------------------------------------------------

    /**
     * The receive side caught the peer breaking a rule: queue the Terminate and end; the Receive
     * being filled completes with {@code receiveStatus}.
     */
    void terminateLocally(TerminateHeader terminate, String reason, CompletionStatus receiveStatus) {
        boolean send;
        synchronized (lock) {
            send = state == QueuePairState.CONNECTED;
            if (send) {
                order.queueTerminate(terminate);
            }
            end(reason, CompletionCause.terminateSent(terminate.layer(), terminate.errorType(), terminate.errorCode()),
                    receiveStatus, null, null);
        }
        if (send) {
            driver.transmitPending();
        } else {
            driver.closeRequested();
        }
    }

    /** The peer's Terminate ends the connection: the Read it is about completes with {@code culpritStatus}. */
    void endByPeerTerminate(TerminateHeader terminate, String reason, CompletionStatus culpritStatus) {
        synchronized (lock) {
            end(reason, CompletionCause.terminateReceived(terminate.layer(), terminate.errorType(),
                    terminate.errorCode()), CompletionStatus.FLUSHED, sends.readTheTerminateIsAbout(terminate),
                    culpritStatus);
        }
    }

    /** The connection ends for {@code cause}, unless it has already. */
    void end(String reason, CompletionCause cause) {
        synchronized (lock) {
            end(reason, cause, CompletionStatus.FLUSHED, null, null);
        }
    }

    /**
     * A fault found while framing: the Terminate is queued, to be framed next (the transmit side
     * cannot wait for the receive side), and the connection ends. Under the lock.
     */
    private void endWithTerminate(TerminateCause cause, String reason, SendWork culprit,
                                  CompletionStatus culpritStatus) {
        order.queueTerminate(new TerminateHeader().reset(cause));
        end(reason, CompletionCause.terminateSent(cause.layer().wireValue(), cause.errorType(), cause.errorCode()),
                CompletionStatus.FLUSHED, culprit, culpritStatus);
    }

    /**
     * Ends the connection: every request not yet done completes: the {@code culprit} (the Read
     * a peer's Terminate is about) with {@code culpritStatus}, the Receive being filled with
     * {@code receiveStatus}, the rest FLUSHED. Requests whose last bytes are in the gathering
     * write being written wait for it: the transmit side completes them (they went out) or
     * flushes them. Under the lock.
     */
    private void end(String reason, CompletionCause cause, CompletionStatus receiveStatus, SendWork culprit,
                     CompletionStatus culpritStatus) {
        if (state != QueuePairState.CONNECTED) {
            return;
        }
        state = QueuePairState.ERROR;
        failure = reason;
        failureCause = cause;
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, "iWARP connection to " + counters.peer() + " terminating: " + reason);
        }
        sends.flush(reason, cause, culprit, culpritStatus);
        receives.flush(reason, cause, receiveSide.receiveBeingFilled(), receiveStatus);
        inboundReads.clear();
        registry.closeAll();
    }
}
