package io.extsock.core.verbs;

import io.extsock.core.mpa.GatherWrite;
import io.extsock.core.mpa.MpaAgreement;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.IwarpConnection;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * One connection's queue pair (RFC 5040 section 5, RFC 5041 section 5), split as Linux siw
 * splits it: this class and {@link WorkQueues} are {@code siw_qp.c}: posting, the state, flush
 * and the order of completions, and the queues both directions share; {@link TransmitSide} is
 * {@code siw_qp_tx.c}; {@link ReceiveSide} is {@code siw_qp_rx.c}, which hands each segment to
 * one handler per RDMAP opcode ({@link SendHandler}, {@link WriteHandler}, {@link
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
 *   <li>Posting, from any application thread, and the queues and state the two sides share:
 *       {@link WorkQueues}, under its lock, briefly; payload is never copied under it.
 * </ul>
 */
public final class QueuePair {

    /** Send-queue entries an application may have outstanding (the API's promise). */
    public static final int SEND_QUEUE_DEPTH = IwarpConnection.SEND_QUEUE_DEPTH;
    /** Receive-queue entries an application may have outstanding (the API's promise). */
    public static final int RECEIVE_QUEUE_DEPTH = IwarpConnection.RECEIVE_QUEUE_DEPTH;

    /** The requests of one posting list, queued inside the turn of the lock that found room for all of them. */
    interface ListPosting {
        void queueAll() throws IOException;
    }

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
    /** Everything the posting threads and the two sides share, behind the one lock. */
    final WorkQueues queues;
    final TransmitSide transmitSide;
    final ReceiveSide receiveSide;

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
        this.queues = new WorkQueues(agreement, registry, driver, counters, waiting);
        this.transmitSide = new TransmitSide(this, queues, pipeline.writer());
        this.receiveSide = new ReceiveSide(this, queues, pipeline);
        queues.attach(receiveSide);
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
        return queues.newSendWork();
    }

    /** A receive-queue entry to fill in, from the pool; give it to {@link #postReceive}. */
    ReceiveWork newReceiveWork() {
        return queues.newReceiveWork();
    }

    /**
     * Queues a Send, Write or Read for transmission; with {@code transmitNow} false it waits for
     * the next transmit, so that several requests go out in one gathering write.
     *
     * @throws QueuePairClosedException if the connection has ended
     * @throws IllegalStateException if {@link #SEND_QUEUE_DEPTH} requests are outstanding
     */
    void postSend(SendWork work, boolean transmitNow) throws QueuePairClosedException {
        queues.postSend(work, transmitNow);
    }

    /**
     * Queues a receive buffer for the peer's next Send.
     *
     * @throws QueuePairClosedException if the connection has ended
     * @throws IllegalStateException if {@link #RECEIVE_QUEUE_DEPTH} receives are outstanding
     */
    void postReceive(ReceiveWork work) throws QueuePairClosedException {
        queues.postReceive(work);
    }

    /**
     * Posts a list whole or not at all: {@code posting} queues its requests (with {@link
     * #postSend} and {@link #postReceive}) only if the connection runs and has room for {@code
     * sends} send-queue requests and {@code receives} Receives, and no other thread's post comes
     * between.
     *
     * @throws QueuePairClosedException if the connection has ended
     * @throws IllegalStateException if the queues lack room for the list
     */
    void postTogether(int sends, int receives, ListPosting posting) throws IOException {
        queues.postTogether(sends, receives, posting);
    }

    /** Transmits what was posted with {@code transmitNow} false. */
    public void transmitPosted() {
        driver.transmitPending();
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
        queues.postInternalSend(header, payload, tag, completer, transmitNow);
    }

    /**
     * Posts a receive buffer for the engine's own use (the socket's stream): from its position to
     * its limit, which the engine moves while it places a Send into it (the buffer is this
     * Receive's alone until it completes).
     */
    public void postInternalReceive(ByteBuffer buffer, long tag, WorkCompleter completer)
            throws QueuePairClosedException {
        queues.postInternalReceive(buffer, tag, completer);
    }

    /**
     * Whether the engine's own stream ever posted a Receive here: only then can a Send land in
     * memory of the engine's own ({@code SegmentSink.speculativeDestination}). Read without the
     * lock by the receive side: a stale false only means one Send goes the usual way.
     */
    boolean hasInternalReceives() {
        return queues.hasInternalReceives();
    }

    /** Whether the connection still accepts work. */
    public boolean isConnected() {
        return queues.isConnected();
    }

    /** Why the connection ended, or null while it runs. */
    public String failure() {
        return queues.failure();
    }

    /** Whether the connection ended by a Terminate of ours (queued, framed or sent). */
    public boolean endedByOurTerminate() {
        return queues.endedByOurTerminate();
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
        return queues.readyToReceivePending();
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
    // The end
    // =====================================================================================

    /** The peer closed TCP: a Terminate if that cut an FPDU ({@link ReceiveSide#peerClosedMidFpdu}). */
    public boolean peerClosedMidFpdu() {
        return receiveSide.peerClosedMidFpdu();
    }

    /** The connection broke under us (reset, end of stream, I/O error). */
    public void connectionLost(String reason) {
        queues.end(reason, CompletionCause.CONNECTION_LOST);
    }

    /**
     * Whether every send-queue request has completed. After the connection ended, those whose
     * last bytes sat in the gathering write being written complete only when its writer lets
     * go (transmitted or flushed): a waiter for completions waits for that, not for nothing.
     */
    public boolean settled() {
        return queues.settled();
    }

    /** The application closed the socket. */
    public void close() {
        queues.end("the connection was closed", CompletionCause.CLOSED);
    }
}
