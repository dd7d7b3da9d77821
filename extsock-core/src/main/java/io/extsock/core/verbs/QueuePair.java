package io.extsock.core.verbs;

import io.extsock.core.mpa.GatherWrite;
import io.extsock.core.mpa.MpaAgreement;
import io.extsock.core.mpa.MpaRole;
import io.extsock.core.rdmap.TerminateHeader;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.WorkOpcode;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * One connection's queue pair (RFC 5040 section 5, RFC 5041 section 5), split as Linux siw
 * splits it: this class is {@code siw_qp.c}: posting, the state, flush and the order of
 * completions, and the queues both directions share; {@link TransmitSide} is {@code
 * siw_qp_tx.c}; {@link ReceiveSide} is {@code siw_qp_rx.c}, which hands each segment to one
 * handler per RDMAP opcode ({@link SendHandler}, {@link WriteHandler}, {@link
 * ReadRequestHandler}, {@link ReadResponseHandler}, {@link TerminateHandler}). Sans-I/O: the
 * engine builds the codecs ({@link WirePipeline}), feeds received octets in and asks for
 * gathering writes to fill.
 *
 * <p>Who may touch what (the engine's package-info has the whole table):
 * <ul>
 *   <li>The receive side ({@link #receive}, {@link #directCapacity}, {@link #placedDirectly}):
 *       one thread at a time, the holder of the connection's receive lock.
 *   <li>The transmit side ({@link #frame}, {@link #transmitted}, {@link #transmitAborted}): one
 *       thread at a time, the holder of the connection's transmit lock.
 *   <li>Posting, from any application thread, and the queues and state the two sides share
 *       (the package-private fields below): under {@link #lock}, briefly; payload is never
 *       copied under it.
 * </ul>
 */
public final class QueuePair {

    private static final System.Logger LOG = System.getLogger(QueuePair.class.getName());

    /** Send-queue entries an application may have outstanding (the API's promise). */
    public static final int SEND_QUEUE_DEPTH = IwarpConnection.SEND_QUEUE_DEPTH;
    /** Receive-queue entries an application may have outstanding (the API's promise). */
    public static final int RECEIVE_QUEUE_DEPTH = IwarpConnection.RECEIVE_QUEUE_DEPTH;

    /** What the engine must do for the queue pair. */
    public interface Driver {
        /** There is something to transmit: frame it soon, from the calling thread if possible. */
        void transmitPending();

        /** The connection is over (Terminate sent or received, or fatal error): close it. */
        void closeRequested();
    }

    final MpaAgreement agreement;
    final MemoryRegistry registry;
    final Driver driver;
    final ConnectionCounters counters;
    final TransmitSide transmitSide;
    final ReceiveSide receiveSide;

    final Object lock = new Object();

    // ---- shared, under lock -------------------------------------------------------------
    /** Posted, not yet framed. */
    final ArrayDeque<SendWork> unframed = new ArrayDeque<>();
    /** Posted, not yet completed, in posting order: the order of their completions. */
    final ArrayDeque<SendWork> inFlight = new ArrayDeque<>();
    /** Our RDMA Reads on the wire, oldest first (ORD). */
    final ArrayDeque<SendWork> outstandingReads = new ArrayDeque<>();
    final ArrayDeque<ReceiveWork> receiveQueue = new ArrayDeque<>();
    /** Set once the stream posts its first Receive ({@link #hasInternalReceives}). */
    private volatile boolean internalReceives;
    /** The peer's Reads accepted and waiting for their response, and the IRD slots. */
    final InboundReads inboundReads = new InboundReads();
    private final WorkPools pools = new WorkPools(16);
    /** Filled for each completion delivered under the lock (send queue, flushes). */
    private final CompletionRecord completionUnderLock = new CompletionRecord();
    QueuePairState state = QueuePairState.CONNECTED;
    String failure;
    /** Why the connection ended, as a value, or null while it runs. */
    CompletionCause failureCause;
    TerminateHeader terminateToSend;
    boolean transmitGateOpen;
    boolean rtrToSend;

    /**
     * @param pipeline the codecs, built by the engine for this connection's agreement
     * @param waiting the engine's wait, which the region fence waits through
     * @param counters where this connection's counts go (and the names of its ends)
     */
    public QueuePair(MpaAgreement agreement, WirePipeline pipeline, MemoryRegistry registry, Driver driver,
                     InlineWait waiting, ConnectionCounters counters) {
        this.counters = counters;
        this.agreement = agreement;
        this.registry = registry;
        this.driver = driver;
        // RFC 5044 section 7.1: a responder may not send before the initiator's first FPDU
        // arrives; RFC 6581 section 4: in peer-to-peer mode the initiator sends that FPDU, the RTR.
        this.transmitGateOpen = agreement.role() == MpaRole.INITIATOR || !agreement.waitsForPeerFirstFpdu();
        this.rtrToSend = agreement.sendsRtr();
        this.transmitSide = new TransmitSide(this, pipeline.writer());
        this.receiveSide = new ReceiveSide(this, pipeline);
        registry.fence().attach(waiting, lock);
    }

    public MpaAgreement agreement() {
        return agreement;
    }

    /** This connection's counts. */
    public ConnectionCounters counters() {
        return counters;
    }

    // =====================================================================================
    // Posting (any thread)
    // =====================================================================================

    /** A send-queue entry to fill in, from the pool; give it to {@link #postSend}. */
    SendWork newSendWork() {
        synchronized (lock) {
            return pools.takeSend();
        }
    }

    /** A receive-queue entry to fill in, from the pool; give it to {@link #postReceive}. */
    ReceiveWork newReceiveWork() {
        synchronized (lock) {
            return pools.takeReceive();
        }
    }

    /**
     * Queues a Send, Write or Read for transmission; with {@code transmitNow} false it waits for
     * the next transmit, so that several requests go out in one gathering write.
     *
     * @throws QueuePairClosedException if the connection has ended
     * @throws IllegalStateException if {@link #SEND_QUEUE_DEPTH} requests are outstanding
     */
    void postSend(SendWork work, boolean transmitNow) throws QueuePairClosedException {
        synchronized (lock) {
            try {
                requireRoom(1, 0);
            } catch (QueuePairClosedException | IllegalStateException refused) {
                pools.recycle(work);
                throw refused;
            }
            queueSend(work);
        }
        if (transmitNow) {
            driver.transmitPending();
        }
    }

    /**
     * Under the lock: that {@code sends} send-queue requests and {@code receives} Receives may be
     * posted now, all of them (one request's, or a posting list's).
     */
    void requireRoom(int sends, int receives) throws QueuePairClosedException {
        if (state != QueuePairState.CONNECTED) {
            throw new QueuePairClosedException(failure);
        }
        if (inFlight.size() + sends > SEND_QUEUE_DEPTH) {
            throw new IllegalStateException("send queue full: " + (sends == 1 ? SEND_QUEUE_DEPTH + " requests outstanding"
                    : "room for " + (SEND_QUEUE_DEPTH - inFlight.size()) + " of " + SEND_QUEUE_DEPTH
                    + " requests, not the list's " + sends) + "; wait for completions before posting more");
        }
        if (receiveQueue.size() + receives > RECEIVE_QUEUE_DEPTH) {
            throw new IllegalStateException("receive queue full: " + (receives == 1
                    ? RECEIVE_QUEUE_DEPTH + " receives outstanding"
                    : "room for " + (RECEIVE_QUEUE_DEPTH - receiveQueue.size()) + " of " + RECEIVE_QUEUE_DEPTH
                    + " receives, not the list's " + receives));
        }
    }

    /** Under the lock: a request joins the send queue. */
    private void queueSend(SendWork work) {
        inFlight.add(work);
        if (work.done) {
            // Failed local checks: it completes in its turn, nothing goes on the wire.
            deliverSendCompletions();
        } else {
            unframed.add(work);
        }
    }

    /** Transmits what was posted with {@code transmitNow} false. */
    public void transmitPosted() {
        driver.transmitPending();
    }

    /**
     * Queues a receive buffer for the peer's next Send.
     *
     * @throws QueuePairClosedException if the connection has ended
     * @throws IllegalStateException if {@link #RECEIVE_QUEUE_DEPTH} receives are outstanding
     */
    void postReceive(ReceiveWork work) throws QueuePairClosedException {
        synchronized (lock) {
            try {
                requireRoom(0, 1);
            } catch (QueuePairClosedException | IllegalStateException refused) {
                pools.recycle(work);
                throw refused;
            }
            receiveQueue.add(work);
        }
    }

    /**
     * Posts a Send for the engine's own use (the socket's stream): the header's remaining octets,
     * then the payload's (if not null); no registered region, no application completion queue.
     * The buffers are referenced, not copied, until the Send completes, and the engine moves their
     * positions and limits meanwhile (so each is this Send's alone); with {@code transmitNow}
     * false it waits for {@link #transmitPosted()}.
     */
    public void postInternalSend(ByteBuffer header, ByteBuffer payload, long tag, WorkCompleter completer,
                                 boolean transmitNow) throws QueuePairClosedException {
        // One turn of the lock for taking the entry and queuing it: this runs for every stream write.
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
            queueSend(work);
        }
        if (transmitNow) {
            driver.transmitPending();
        }
    }

    /**
     * Posts a receive buffer for the engine's own use (the socket's stream): from its position to
     * its limit, which the engine moves while it places a Send into it (the buffer is this
     * Receive's alone until it completes).
     */
    public void postInternalReceive(ByteBuffer buffer, long tag, WorkCompleter completer)
            throws QueuePairClosedException {
        synchronized (lock) {  // one turn of the lock, as for postInternalSend
            requireRoom(0, 1);
            ReceiveWork work = pools.takeReceive();
            work.tag = tag;
            work.completer = completer;
            work.addPiece(buffer);
            receiveQueue.add(work);
            internalReceives = true;
        }
    }

    /**
     * Whether the engine's own stream ever posted a Receive here: only then can a Send land in
     * memory of the engine's own ({@code SegmentSink.speculativeDestination}). Read without the
     * lock by the receive side: a stale false only means one Send goes the usual way.
     */
    boolean hasInternalReceives() {
        return internalReceives;
    }

    /** Whether the connection still accepts work. */
    public boolean isConnected() {
        synchronized (lock) {
            return state == QueuePairState.CONNECTED;
        }
    }

    /** Why the connection ended, or null while it runs. */
    public String failure() {
        synchronized (lock) {
            return failure;
        }
    }

    /** Whether the connection ended by a Terminate of ours (queued, framed or sent). */
    public boolean endedByOurTerminate() {
        synchronized (lock) {
            return failureCause != null && failureCause.origin() == CompletionCause.Origin.TERMINATE_SENT;
        }
    }

    // =====================================================================================
    // The two sides, as the engine drives them: TransmitSide's methods by the holder of the
    // transmit lock, ReceiveSide's by the holder of the receive lock. Each side announces its
    // calls to the region fence (see RegionFence).
    // =====================================================================================

    public boolean frame(GatherWrite out) {
        return transmitSide.frame(out);
    }

    public void transmitted() {
        transmitSide.transmitted();
    }

    public void transmitAborted(String reason) {
        transmitSide.transmitAborted(reason);
    }

    public boolean hasTransmitWork() {
        return transmitSide.hasTransmitWork();
    }

    /**
     * Whether the RTR (RFC 6581) is all there is to send: it may then wait for the application's
     * first message and go out in the same write.
     */
    public boolean onlyReadyToReceivePending() {
        return transmitSide.onlyReadyToReceivePending();
    }

    /** Whether the RTR still waits to be framed (a hint, read without the lock). */
    public boolean readyToReceivePending() {
        return rtrToSend;
    }

    public void receive(ByteBuffer staged) {
        receiveSide.receive(staged);
    }

    /** Payload octets that may be read from the socket straight into {@link #directTarget()}. */
    public int directCapacity() {
        return receiveSide.directCapacity();
    }

    public ByteBuffer directTarget() {
        return receiveSide.directTarget();
    }

    /** The most octets the next read into the staging buffer should take: a hint, to read large payloads directly. */
    public int stagedReadLength() {
        return receiveSide.stagedReadLength();
    }

    public void placedDirectly(int count) {
        receiveSide.placedDirectly(count);
    }

    // =====================================================================================
    // Completion order
    // =====================================================================================

    /** Reports finished send-queue entries in the order they were posted. Under the lock. */
    void deliverSendCompletions() {
        SendWork head;
        while ((head = inFlight.peek()) != null && head.done) {
            inFlight.poll();
            counters.completed(head.status);
            head.completer.complete(completionUnderLock.set(head.tag, head.opcode, head.status, head.length, false, 0,
                    head.detail, head.cause));
            pools.recycle(head);
        }
    }

    /**
     * Completes a Receive already taken off the queue and recycled (its completer kept), outside
     * the lock: the completer may take its own. A null completer (the Receive was flushed
     * meanwhile) completes nothing.
     */
    void complete(WorkCompleter completer, CompletionRecord completion) {
        if (completer == null) {
            return;
        }
        counters.completed(completion.status());
        completer.complete(completion);
    }

    /** Under the lock: a Receive taken off the queue goes back to the pool. */
    void recycleUnderLock(ReceiveWork work) {
        pools.recycle(work);
    }

    // =====================================================================================
    // Terminate and flush
    // =====================================================================================

    /**
     * We caught the peer breaking a rule (the receive side built the Terminate, RFC 5040
     * section 7): queue it and end; the Receive being filled completes with {@code receiveStatus}.
     */
    void terminateLocally(TerminateHeader terminate, String reason, CompletionStatus receiveStatus) {
        boolean send;
        synchronized (lock) {
            send = state == QueuePairState.CONNECTED;
            if (send) {
                terminateToSend = terminate;
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

    /** The peer closed TCP: a Terminate if that cut an FPDU ({@link ReceiveSide#peerClosedMidFpdu}). */
    public boolean peerClosedMidFpdu() {
        return receiveSide.peerClosedMidFpdu();
    }

    /** The connection broke under us (reset, end of stream, I/O error). */
    public void connectionLost(String reason) {
        synchronized (lock) {
            if (state == QueuePairState.CONNECTED) {
                end(reason, CompletionCause.CONNECTION_LOST, CompletionStatus.FLUSHED, null, null);
            }
        }
    }

    /**
     * Whether every send-queue request has completed. After the connection ended, those whose
     * last bytes sat in the gathering write being written complete only when its writer lets
     * go (transmitted or flushed): a waiter for completions waits for that, not for nothing.
     */
    public boolean settled() {
        synchronized (lock) {
            return inFlight.isEmpty();
        }
    }

    /** The application closed the socket. */
    public void close() {
        synchronized (lock) {
            if (state == QueuePairState.CONNECTED) {
                end("the connection was closed", CompletionCause.CLOSED, CompletionStatus.FLUSHED, null, null);
            }
        }
    }

    /**
     * Ends the connection: every request not yet done completes: the {@code culprit} (the Read
     * a peer's Terminate is about) with {@code culpritStatus}, the Receive being filled with
     * {@code receiveStatus}, the rest FLUSHED. Requests whose last bytes are in the gathering
     * write being written wait for it: the transmit side completes them (they went out) or
     * flushes them. Called under the lock.
     */
    void end(String reason, CompletionCause cause, CompletionStatus receiveStatus, SendWork culprit,
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
        for (SendWork work : inFlight) {
            if (!work.done && !transmitSide.lastSegmentInGather(work)) {
                work.finish(work == culprit ? culpritStatus : CompletionStatus.FLUSHED, reason, cause);
            }
        }
        unframed.clear();
        outstandingReads.clear();
        deliverSendCompletions();
        boolean first = true;
        ReceiveWork receiving = receiveSide.sends.receiving();
        ReceiveWork work;
        while ((work = receiveQueue.poll()) != null) {
            CompletionStatus status = first && work == receiving ? receiveStatus : CompletionStatus.FLUSHED;
            counters.completed(status);
            work.completer.complete(completionUnderLock.set(work.tag, WorkOpcode.RECEIVE, status, 0, false, 0, reason,
                    cause));
            if (work != receiving) {
                pools.recycle(work);  // not the one being filled: the receive side may be placing into it
            }
            first = false;
        }
        inboundReads.clear();
        registry.closeAll();
    }
}
