package io.extsock.core.verbs;

import io.extsock.core.ddp.DdpConstants;
import io.extsock.core.ddp.DdpReceiveBookkeeping;
import io.extsock.core.ddp.MessageSequenceNumbers;
import io.extsock.core.ddp.TaggedBufferDescription;
import io.extsock.core.ddp.TaggedBufferLookup;
import io.extsock.core.ddp.UntaggedBufferLookup;
import io.extsock.core.events.ExtsockEvents;
import io.extsock.core.mpa.GatherWrite;
import io.extsock.core.mpa.MpaAgreement;
import io.extsock.core.mpa.RtrKind;
import io.extsock.core.rdmap.MessagePayload;
import io.extsock.core.rdmap.MessageWriter;
import io.extsock.core.rdmap.RdmapConstants;
import io.extsock.core.rdmap.RdmapOpcode;
import io.extsock.core.rdmap.RdmapSegmentHeader;
import io.extsock.core.rdmap.ReadRequestHeader;
import io.extsock.core.rdmap.SegmentReader;
import io.extsock.core.rdmap.SegmentSink;
import io.extsock.core.rdmap.TerminateHeader;
import io.extsock.core.wire.ErrorLayer;
import io.extsock.core.wire.ProtocolViolationException;
import io.extsock.core.wire.TerminateCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.MessageType;
import io.extsock.verbs.WorkOpcode;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One connection's RDMAP state machine (RFC 5040 section 5, RFC 5041 section 5): its send and
 * receive queues, the RDMA Reads it has outstanding (ORD) and those it serves (IRD), the
 * checks every incoming segment must pass, Terminate, and the completions. Sans-I/O: the
 * engine feeds it received octets and asks it to fill gathering writes.
 *
 * <p>Who may touch what (the engine's threading rules in one place):
 * <ul>
 *   <li>The receive side ({@link #receive}, {@link #directCapacity}, {@link #placedDirectly},
 *       the {@link SegmentSink} callbacks): one thread at a time, the holder of the
 *       connection's receive lock.
 *   <li>The transmit side ({@link #frame}, {@link #transmitted}): one thread at a time, the
 *       holder of the connection's transmit lock.
 *   <li>Posting, from any application thread, and the queues and state the two sides share:
 *       under {@link #lock}, briefly; payload is never copied under it.
 * </ul>
 */
public final class QueuePair implements SegmentSink {

    private static final System.Logger LOG = System.getLogger(QueuePair.class.getName());

    /** Send-queue entries an application may have outstanding. */
    public static final int SEND_QUEUE_DEPTH = 512;
    /** Receive-queue entries an application may have outstanding. */
    public static final int RECEIVE_QUEUE_DEPTH = 512;

    /** Longest Terminate the peer may send (RFC 5040 section 4.8): the "buffer" of queue 2. */
    private static final int TERMINATE_QUEUE_CAPACITY = 128;

    /** What the engine must do for the queue pair. */
    public interface Driver {
        /** There is something to transmit: frame it soon, from the calling thread if possible. */
        void transmitPending();

        /** The connection is over (Terminate sent or received, or fatal error): close it. */
        void closeRequested();
    }

    private final MpaAgreement agreement;
    final MemoryRegistry registry;
    private final Driver driver;
    private final InlineWait waiting;
    private final ConnectionCounters counters;

    private final Object lock = new Object();

    // ---- shared, under lock -------------------------------------------------------------
    private final ArrayDeque<SendWork> unframed = new ArrayDeque<>();
    private final ArrayDeque<SendWork> inFlight = new ArrayDeque<>();
    private final ArrayDeque<SendWork> outstandingReads = new ArrayDeque<>();
    private final ArrayDeque<ReceiveWork> receiveQueue = new ArrayDeque<>();
    private final ArrayDeque<InboundRead> inboundReads = new ArrayDeque<>();
    private final ArrayDeque<SendWork> sendPool = new ArrayDeque<>();
    private final ArrayDeque<ReceiveWork> receivePool = new ArrayDeque<>();
    private final ArrayDeque<InboundRead> inboundPool = new ArrayDeque<>();
    private QueuePairState state = QueuePairState.CONNECTED;
    private String failure;
    private TerminateHeader terminateToSend;
    private boolean transmitGateOpen;
    private boolean rtrToSend;
    private int inboundReadsAccepted;

    // ---- transmit side ------------------------------------------------------------------
    private final MessageWriter writer;
    private final MessageSequenceNumbers sendSequence = new MessageSequenceNumbers();
    private final List<SendWork> lastSegmentInGather = new ArrayList<>();
    private final LentViews lentViews = new LentViews();
    private final ReadRequestHeader outgoingRead = new ReadRequestHeader();
    private SendWork framing;
    private InboundRead responding;
    private boolean terminateFramed;
    private boolean terminateInGather;
    /** A Terminate just started, to announce (event, log) outside the lock; transmit side. */
    private TerminateHeader terminateStarted;
    private boolean preferReadResponse;

    // ---- receive side -------------------------------------------------------------------
    private final SegmentReader reader;
    private final DdpReceiveBookkeeping bookkeeping;
    private final RegionPlacementLookup writeTargets;
    private final ReadSourceCheck readSources;
    private final ReadRequestHeader acceptedRead = new ReadRequestHeader();
    private RdmapOpcode segmentOpcode;
    private ReceiveWork receiving;
    private boolean readRequestAccepted;
    private boolean rtrSendExpected;
    private boolean rtrReadResponseExpected;
    private ByteBuffer bounce;
    private long bounceOffset;

    /**
     * @param pipeline the codecs, built by the engine for this connection's agreement
     * @param waiting the engine's wait, for the stream package's blocking calls
     * @param counters where this connection's counts go (and the names of its ends)
     */
    public QueuePair(MpaAgreement agreement, WirePipeline pipeline, MemoryRegistry registry, Driver driver,
                     InlineWait waiting, ConnectionCounters counters) {
        this.counters = counters;
        this.agreement = agreement;
        this.registry = registry;
        this.driver = driver;
        this.waiting = waiting;
        this.writer = pipeline.writer();
        this.reader = pipeline.reader().apply(this);
        this.writeTargets = RegionPlacementLookup.forRdmaWrite(registry);
        this.readSources = new ReadSourceCheck(registry);
        this.bookkeeping = new DdpReceiveBookkeeping(new ReceiveBuffers(), new SinkBuffers());
        // RFC 5044 section 7.1: a responder may not send before the initiator's first FPDU
        // arrives; RFC 6581 section 4: in peer-to-peer mode the initiator sends that FPDU, the RTR.
        this.transmitGateOpen = agreement.role() == io.extsock.core.mpa.MpaRole.INITIATOR
                || !agreement.waitsForPeerFirstFpdu();
        this.rtrToSend = agreement.sendsRtr();
        boolean responderWithRtr = agreement.role() == io.extsock.core.mpa.MpaRole.RESPONDER
                && agreement.rtr().isPresent();
        this.rtrSendExpected = responderWithRtr && agreement.rtr().get() == RtrKind.ZERO_LENGTH_SEND;
        this.rtrReadResponseExpected = agreement.sendsRtr() && agreement.rtr().get() == RtrKind.ZERO_LENGTH_READ;
        for (int i = 0; i < 16; i++) {
            sendPool.add(new SendWork());
            receivePool.add(new ReceiveWork());
        }
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
            SendWork work = sendPool.poll();
            return work != null ? work : new SendWork();
        }
    }

    /** A receive-queue entry to fill in, from the pool; give it to {@link #postReceive}. */
    ReceiveWork newReceiveWork() {
        synchronized (lock) {
            ReceiveWork work = receivePool.poll();
            return work != null ? work : new ReceiveWork();
        }
    }

    /**
     * Queues a Send, Write or Read for transmission.
     *
     * @throws QueuePairClosedException if the connection has ended
     * @throws IllegalStateException if {@link #SEND_QUEUE_DEPTH} requests are outstanding
     */
    void postSend(SendWork work) throws QueuePairClosedException {
        postSend(work, true);
    }

    /**
     * As {@link #postSend(SendWork)}; with {@code transmitNow} false the request waits for the
     * next transmit, so that several requests go out in one gathering write.
     */
    void postSend(SendWork work, boolean transmitNow) throws QueuePairClosedException {
        synchronized (lock) {
            if (state != QueuePairState.CONNECTED) {
                recycle(work);
                throw new QueuePairClosedException(failure);
            }
            if (inFlight.size() >= SEND_QUEUE_DEPTH) {
                recycle(work);
                throw new IllegalStateException("send queue full: " + SEND_QUEUE_DEPTH
                        + " requests outstanding; wait for completions before posting more");
            }
            inFlight.add(work);
            if (work.done) {
                // Failed local checks: it completes in its turn, nothing goes on the wire.
                deliverSendCompletions();
            } else {
                unframed.add(work);
            }
        }
        if (transmitNow) {
            driver.transmitPending();
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
            if (state != QueuePairState.CONNECTED) {
                recycle(work);
                throw new QueuePairClosedException(failure);
            }
            if (receiveQueue.size() >= RECEIVE_QUEUE_DEPTH) {
                recycle(work);
                throw new IllegalStateException("receive queue full: " + RECEIVE_QUEUE_DEPTH
                        + " receives outstanding");
            }
            receiveQueue.add(work);
        }
    }

    /**
     * Posts a Send of the given octets for the engine's own use (the socket's stream): no
     * registered region, no application completion queue.
     */
    public void postInternalSend(ByteBuffer[] payload, int count, long tag, WorkCompleter completer)
            throws QueuePairClosedException {
        postInternalSend(payload, count, tag, completer, true);
    }

    /** As above; with {@code transmitNow} false it waits for {@link #transmitPosted()}. */
    public void postInternalSend(ByteBuffer[] payload, int count, long tag, WorkCompleter completer,
                                 boolean transmitNow) throws QueuePairClosedException {
        SendWork work = newSendWork();
        work.opcode = WorkOpcode.SEND;
        work.tag = tag;
        work.completer = completer;
        for (int i = 0; i < count; i++) {
            work.addPiece(payload[i]);
        }
        postSend(work, transmitNow);
    }

    /** Posts a receive buffer for the engine's own use (the socket's stream). */
    public void postInternalReceive(ByteBuffer buffer, long tag, WorkCompleter completer)
            throws QueuePairClosedException {
        ReceiveWork work = newReceiveWork();
        work.tag = tag;
        work.completer = completer;
        work.addPiece(buffer);
        postReceive(work);
    }

    /**
     * The engine's wait ({@link InlineWait#await}), for the stream package only: it reaches the
     * engine through the queue pair until it is handed the {@link InlineWait} itself. The verbs
     * layer waits through its {@link InlineWait} directly.
     */
    public boolean await(java.util.function.BooleanSupplier condition, long timeoutNanos, boolean interruptible) {
        return waiting.await(condition, timeoutNanos, interruptible);
    }

    /** {@link InlineWait#wakeWaiters}, for the stream package only (see {@link #await}). */
    public void wakeWaiters() {
        waiting.wakeWaiters();
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

    // =====================================================================================
    // Transmit side (holder of the transmit lock)
    // =====================================================================================

    /**
     * Frames what is ready to go into the gathering write: a pending Terminate first, then the
     * RTR, then Read Responses and send-queue messages taking turns.
     *
     * @return whether anything was framed
     */
    public boolean frame(GatherWrite out) {
        boolean framed = false;
        while (true) {
            if (writer.inProgress()) {
                boolean finished = writer.writeTo(out);
                framed = true;
                if (!finished) {
                    return true;  // the gather is full: write it, then call again
                }
                messageFramed();
                continue;
            }
            if (!startNextMessage()) {
                return framed;
            }
            if (terminateStarted != null) {
                announceTerminateSent(terminateStarted, failure());
                terminateStarted = null;
                counters.messageSent(MessageType.TERMINATE, 0);  // after the event: who sees the count sees it
            }
        }
    }

    /** The gathering write that {@link #frame} filled went out whole. */
    public void transmitted() {
        boolean closeNow = false;
        lentViews.returnAll();  // the write is out: its views go back to their regions
        synchronized (lock) {
            for (SendWork work : lastSegmentInGather) {
                work.finish(CompletionStatus.SUCCESS, null);
            }
            lastSegmentInGather.clear();
            deliverSendCompletions();
            if (terminateInGather) {
                terminateInGather = false;
                closeNow = true;
            }
        }
        if (closeNow) {
            driver.closeRequested();
        }
    }

    /** Whether there is anything {@link #frame} would frame now. */
    public boolean hasTransmitWork() {
        synchronized (lock) {
            if (writer.inProgress() || terminateToSend != null && !terminateFramed) {
                return true;
            }
            if (state != QueuePairState.CONNECTED || !transmitGateOpen) {
                return false;
            }
            return rtrToSend || !inboundReads.isEmpty() || readyToFrame(unframed.peek());
        }
    }

    private boolean startNextMessage() {
        synchronized (lock) {
            if (terminateToSend != null && !terminateFramed) {
                terminateFramed = true;
                writer.startTerminate(sendSequence.assign(DdpConstants.QN_TERMINATE), terminateToSend);
                terminateStarted = terminateToSend;  // announced and counted by frame(), outside the lock
                return true;
            }
            if (state != QueuePairState.CONNECTED || !transmitGateOpen) {
                return false;
            }
            if (rtrToSend) {
                rtrToSend = false;
                startReadyToReceive();
                return true;
            }
            SendWork next = unframed.peek();
            boolean sendReady = readyToFrame(next);
            boolean responseReady = !inboundReads.isEmpty();
            if (responseReady && (preferReadResponse || !sendReady)) {
                preferReadResponse = false;
                responding = inboundReads.poll();
                if (!checkReadResponseSource(responding)) {
                    return true;  // the region went away meanwhile: a Terminate is queued instead
                }
                responding.lentViews = lentViews;
                writer.startReadResponse(responding.sinkStag, responding.sinkTaggedOffset, responding);
                counters.messageSent(MessageType.RDMA_READ_RESPONSE, responding.size);
                return true;
            }
            if (!sendReady) {
                return false;
            }
            preferReadResponse = true;  // RFC 5040 section 5.2: responses take turns with new work
            framing = unframed.poll();
            startSendWork(framing);
            return true;
        }
    }

    /**
     * Checks a Read Response's source again now: the application may have deregistered the
     * region since the request arrived (RFC 5042: its STag is then dead). False, with a
     * Terminate queued, if the check fails. Called under the lock.
     */
    private boolean checkReadResponseSource(InboundRead read) {
        if (read.size == 0) {
            return true;
        }
        TerminateCause refused = readSources.check(read.sourceStag, read.sourceTaggedOffset, read.size);
        if (refused != null) {
            InboundRead dropped = responding;
            responding = null;
            inboundReadsAccepted--;
            dropped.clear();
            inboundPool.add(dropped);
            terminateToSend = new TerminateHeader().reset(refused);
            end("terminated by this side: " + ReadSourceCheck.describe(refused, read.sourceStag,
                    read.sourceTaggedOffset, read.size) + " (the region was deregistered before the response)",
                    CompletionStatus.FLUSHED, null, null);
            return false;
        }
        read.source = registry.lookup(read.sourceStag);
        return true;
    }

    /** A send-queue head may go unless it is a Read beyond the negotiated ORD. */
    private boolean readyToFrame(SendWork next) {
        return next != null && (next.opcode != WorkOpcode.RDMA_READ || outstandingReads.size() < agreement.ord());
    }

    private void startSendWork(SendWork work) {
        work.lentViews = lentViews;
        switch (work.opcode) {
            case SEND:
                RdmapOpcode variant = work.invalidate
                        ? (work.solicited ? RdmapOpcode.SEND_WITH_SOLICITED_EVENT_AND_INVALIDATE
                                : RdmapOpcode.SEND_WITH_INVALIDATE)
                        : (work.solicited ? RdmapOpcode.SEND_WITH_SOLICITED_EVENT : RdmapOpcode.SEND);
                writer.startSend(variant, work.invalidate ? work.invalidateStag : 0,
                        sendSequence.assign(DdpConstants.QN_SEND), work);
                counters.messageSent(MessageType.SEND, work.length);
                break;
            case RDMA_WRITE:
                writer.startWrite(work.remoteStag, work.remoteOffset, work);
                counters.messageSent(MessageType.RDMA_WRITE, work.length);
                break;
            case RDMA_READ:
                outstandingReads.add(work);
                counters.messageSent(MessageType.RDMA_READ_REQUEST, 0);
                writer.startReadRequest(sendSequence.assign(DdpConstants.QN_READ_REQUEST), outgoingRead
                        .set(work.sinkRegion.stag(), work.sinkOffset, work.length, work.remoteStag, work.remoteOffset));
                break;
            default:
                throw new IllegalStateException("not a send-queue operation: " + work.opcode);
        }
    }

    /** RFC 6581 section 4: the zero-length message that lets the responder talk. */
    private void startReadyToReceive() {
        RtrKind kind = agreement.rtr().orElseThrow();
        switch (kind) {
            case ZERO_LENGTH_WRITE:
                writer.startWrite(0, 0, MessagePayload.EMPTY);
                counters.messageSent(MessageType.RDMA_WRITE, 0);
                break;
            case ZERO_LENGTH_READ:
                writer.startReadRequest(sendSequence.assign(DdpConstants.QN_READ_REQUEST),
                        outgoingRead.set(0, 0, 0, 0, 0));
                counters.messageSent(MessageType.RDMA_READ_REQUEST, 0);
                break;
            default:
                writer.startSend(RdmapOpcode.SEND, 0, sendSequence.assign(DdpConstants.QN_SEND), MessagePayload.EMPTY);
                counters.messageSent(MessageType.SEND, 0);
        }
    }

    /** The current message's last segment is in the gather. */
    private void messageFramed() {
        synchronized (lock) {
            if (responding != null) {
                InboundRead done = responding;
                responding = null;
                inboundReadsAccepted--;
                done.clear();
                inboundPool.add(done);
            } else if (framing != null) {
                if (framing.opcode != WorkOpcode.RDMA_READ && state == QueuePairState.CONNECTED) {
                    lastSegmentInGather.add(framing);  // complete once the bytes left
                }
                framing = null;
            } else if (terminateFramed && terminateToSend != null) {
                terminateInGather = true;
                terminateToSend = null;
            }
        }
    }

    // =====================================================================================
    // Receive side (holder of the receive lock)
    // =====================================================================================

    /**
     * Processes received octets. A rule the peer broke ends the connection: a Terminate is
     * queued, every request completes, and the driver is asked to close.
     */
    public void receive(ByteBuffer staged) {
        try {
            reader.read(staged);
        } catch (ProtocolViolationException e) {
            staged.position(staged.limit());
            protocolViolation(e);
        }
    }

    /** Payload octets that may be read from the socket straight into {@link #directTarget()}. */
    public int directCapacity() {
        return reader.directCapacity();
    }

    public ByteBuffer directTarget() {
        return reader.directTarget();
    }

    public void placedDirectly(int count) {
        reader.placedDirectly(count);
    }

    @Override
    public ByteBuffer segmentStarted(RdmapSegmentHeader header) throws ProtocolViolationException {
        openTransmitGateOnFirstFpdu();
        segmentOpcode = header.opcode();
        readRequestAccepted = false;
        boolean untaggedStart = !header.ddp().tagged() && header.ddp().messageOffset() == 0;
        if (untaggedStart && header.ddp().queueNumber() == DdpConstants.QN_SEND) {
            startReceivingSend();
        }
        bookkeeping.accept(header.ddp());
        int length = header.ulpPayloadLength();
        MessageType type = ConnectionCounters.typeOf(segmentOpcode);
        if (type != null && type != MessageType.TERMINATE && type != MessageType.RDMA_READ_REQUEST) {
            counters.payloadReceived(type, length);
        }
        switch (segmentOpcode) {
            case RDMA_WRITE: {
                if (length == 0) {
                    return null;
                }
                // The region DDP's check just approved: no second lookup for a deregistration to race.
                return writeTargets.describedRegion().placementWindow(header.ddp().taggedOffset(), length);
            }
            case RDMA_READ_RESPONSE: {
                if (length == 0) {
                    return null;
                }
                // DDP's check kept the segment within the outstanding Read's sink range.
                return outstandingReadHead().sinkRegion.placementWindow(header.ddp().taggedOffset(), length);
            }
            case RDMA_READ_REQUEST:
                acceptReadRequest(header.readRequest());
                return null;
            case TERMINATE:
                return null;
            default:
                return sendPlacement(header.ddp().messageOffset(), length);
        }
    }

    @Override
    public void segmentComplete(RdmapSegmentHeader header) throws ProtocolViolationException {
        if (bounce != null) {
            scatterBounce();
        }
        if (!header.ddp().last()) {
            return;
        }
        MessageType type = ConnectionCounters.typeOf(segmentOpcode);
        if (type != null && type != MessageType.TERMINATE) {
            counters.messageReceived(type);  // before the completion: who sees that, sees the count
        }
        switch (segmentOpcode) {
            case RDMA_WRITE:
                return;  // one-sided: nothing to tell the application
            case RDMA_READ_RESPONSE:
                completeOutstandingRead();
                return;
            case RDMA_READ_REQUEST:
                if (readRequestAccepted) {
                    queueReadResponse();
                }
                return;
            case TERMINATE:
                peerTerminated(header);
                counters.messageReceived(MessageType.TERMINATE);  // after its event: who sees the count, sees it
                return;
            default:
                completeReceivedSend(header);
        }
    }

    private void openTransmitGateOnFirstFpdu() {
        boolean opened = false;
        synchronized (lock) {
            if (!transmitGateOpen) {
                transmitGateOpen = true;
                opened = true;
            }
        }
        if (opened) {
            driver.transmitPending();
        }
    }

    /** An incoming Send starts: it goes to the head of the receive queue (or is the RTR). */
    private void startReceivingSend() {
        if (rtrSendExpected) {
            receiving = null;
            return;
        }
        synchronized (lock) {
            receiving = receiveQueue.peek();
        }
    }

    private ByteBuffer sendPlacement(long messageOffset, int length) {
        if (length == 0 || receiving == null) {
            return null;
        }
        // Find the scatter slice the segment starts in; if it spans slices, go through a
        // bounce buffer (a copy, only for segments that straddle slices).
        long skip = messageOffset;
        for (int i = 0; i < receiving.pieces(); i++) {
            int pieceLength = receiving.length(i);
            if (skip < pieceLength) {
                if (skip + length <= pieceLength) {
                    return receiving.placement(i, (int) skip, length);
                }
                bounce = ByteBuffer.allocate(length);
                bounceOffset = messageOffset;
                return bounce;
            }
            skip -= pieceLength;
        }
        throw new IllegalStateException("DDP admitted a Send longer than its receive buffer");
    }

    private void scatterBounce() {
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
        bounce = null;
    }

    private void completeReceivedSend(RdmapSegmentHeader header) throws ProtocolViolationException {
        long length = bookkeeping.untagged().completedMessageLength();
        if (rtrSendExpected) {
            rtrSendExpected = false;  // the RTR: consumed no receive and tells nobody
            return;
        }
        ReceiveWork done;
        synchronized (lock) {
            done = receiveQueue.poll();
        }
        receiving = null;
        int invalidated = 0;
        String detail = null;
        CompletionStatus status = CompletionStatus.SUCCESS;
        if (header.opcode().invalidatesStag()) {
            invalidated = header.invalidateStag();
            TerminateCause refused = registry.invalidate(invalidated);
            if (refused != null) {
                complete(done, WorkOpcode.RECEIVE, CompletionStatus.REMOTE_OPERATION_ERROR, length,
                        String.format("the peer's Send with Invalidate named STag 0x%08x, which cannot be invalidated",
                                invalidated));
                throw new ProtocolViolationException(refused, String.format(
                        "Send with Invalidate of STag 0x%08x, which this connection cannot invalidate", invalidated));
            }
        }
        complete(done, WorkOpcode.RECEIVE, status, length, header.opcode().solicitedEvent(), invalidated, detail);
    }

    private void acceptReadRequest(ReadRequestHeader request) throws ProtocolViolationException {
        if (request.readSize() == 0) {
            acceptedRead.copyFrom(request);  // zero length: nothing to check (RFC 5040 5.2, RTR)
            readRequestAccepted = true;
            return;
        }
        TerminateCause refused = readSources.check(request.sourceStag(), request.sourceTaggedOffset(),
                request.readSize());
        if (refused != null) {
            throw new ProtocolViolationException(refused, ReadSourceCheck.describe(refused, request.sourceStag(),
                    request.sourceTaggedOffset(), request.readSize()));
        }
        acceptedRead.copyFrom(request);
        readRequestAccepted = true;
    }

    private void queueReadResponse() {
        synchronized (lock) {
            InboundRead read = inboundPool.poll();
            if (read == null) {
                read = new InboundRead();
            }
            read.sinkStag = acceptedRead.sinkStag();
            read.sinkTaggedOffset = acceptedRead.sinkTaggedOffset();
            read.sourceStag = acceptedRead.sourceStag();
            read.sourceTaggedOffset = acceptedRead.sourceTaggedOffset();
            read.size = acceptedRead.readSize();
            inboundReads.add(read);
        }
        driver.transmitPending();
    }

    private SendWork outstandingReadHead() {
        synchronized (lock) {
            return outstandingReads.peek();
        }
    }

    private void completeOutstandingRead() {
        if (rtrReadResponseExpected) {
            rtrReadResponseExpected = false;
            return;
        }
        synchronized (lock) {
            SendWork read = outstandingReads.poll();
            read.finish(CompletionStatus.SUCCESS, null);
            deliverSendCompletions();
        }
        driver.transmitPending();  // a Read waiting for ORD room may go now
    }

    // =====================================================================================
    // The untagged and tagged buffers DDP asks about
    // =====================================================================================

    /** RFC 5041 section 5: the receive buffer for each untagged queue. */
    private final class ReceiveBuffers implements UntaggedBufferLookup {
        @Override
        public long bufferCapacity(int queueNumber, int messageSequenceNumber) {
            switch (queueNumber) {
                case DdpConstants.QN_SEND:
                    if (rtrSendExpected) {
                        return 0;
                    }
                    return receiving != null ? receiving.capacity : NO_BUFFER;
                case DdpConstants.QN_READ_REQUEST:
                    synchronized (lock) {
                        // RFC 5040 section 5.2: at most IRD Read Requests are served at once.
                        if (inboundReadsAccepted >= Math.max(agreement.ird(), rtrReadAllowance())) {
                            return NO_BUFFER;
                        }
                        inboundReadsAccepted++;
                    }
                    return RdmapConstants.READ_REQUEST_HEADER_LENGTH;
                case DdpConstants.QN_TERMINATE:
                    return TERMINATE_QUEUE_CAPACITY;
                default:
                    return NO_BUFFER;
            }
        }
    }

    /** A zero-length Read RTR needs one slot even if the peer offered IRD 0. */
    private int rtrReadAllowance() {
        return agreement.rtr().filter(kind -> kind == RtrKind.ZERO_LENGTH_READ).isPresent() ? 1 : 0;
    }

    /**
     * RFC 5041 section 5.1: the tagged buffer an incoming segment names. An RDMA Write may
     * reach only a region registered with the remote-write right; a Read Response only the
     * sink of the Read this side has outstanding (whatever that region's remote rights).
     */
    private final class SinkBuffers implements TaggedBufferLookup {
        @Override
        public void describe(int stag, TaggedBufferDescription answer) {
            if (segmentOpcode == RdmapOpcode.RDMA_READ_RESPONSE) {
                SendWork read = outstandingReadHead();
                if (read != null && read.sinkRegion.stag() == stag) {
                    answer.usable(read.sinkOffset, read.length);
                } else {
                    answer.noSuchStag();
                }
                return;
            }
            writeTargets.describe(stag, answer);
        }
    }

    // =====================================================================================
    // Completions, Terminate, flush
    // =====================================================================================

    /** Reports finished send-queue entries in the order they were posted. */
    private void deliverSendCompletions() {
        SendWork head;
        while ((head = inFlight.peek()) != null && head.done) {
            inFlight.poll();
            counters.completed(head.status);
            head.completer.complete(head.tag, head.opcode, head.status, head.length, false, 0, head.detail);
            recycle(head);
        }
    }

    private void complete(ReceiveWork work, WorkOpcode opcode, CompletionStatus status, long length, String detail) {
        complete(work, opcode, status, length, false, 0, detail);
    }

    private void complete(ReceiveWork work, WorkOpcode opcode, CompletionStatus status, long length,
                          boolean solicited, int invalidated, String detail) {
        if (work == null) {
            return;
        }
        counters.completed(status);
        work.completer.complete(work.tag, opcode, status, length, solicited, invalidated, detail);
        synchronized (lock) {
            recycle(work);
        }
    }

    /** We caught the peer breaking a rule: Terminate it (RFC 5040 section 7) and end. */
    void protocolViolation(ProtocolViolationException violation) {
        TerminateCause cause = violation.terminateCause();
        TerminateHeader terminate = new TerminateHeader().reset(cause);
        if (cause.layer() != ErrorLayer.LLP) {
            ByteBuffer headers = reader.currentHeaderOctets();
            if (headers.remaining() > 0) {
                terminate.includeTerminatedSegment(headers, 0, reader.currentSegmentLength());
            }
            if (segmentOpcode == RdmapOpcode.RDMA_READ_REQUEST && cause.layer() == ErrorLayer.RDMAP) {
                terminate.includeTerminatedReadRequest(reader.currentSegment().readRequest());
            }
        }
        String reason = "terminated by this side: " + violation.getMessage();
        CompletionStatus receiveStatus = cause == TerminateCause.DDP_UNTAGGED_MESSAGE_TOO_LONG
                ? CompletionStatus.LOCAL_LENGTH_ERROR : CompletionStatus.FLUSHED;
        boolean send;
        synchronized (lock) {
            send = state == QueuePairState.CONNECTED;
            if (send) {
                terminateToSend = terminate;
            }
            end(reason, receiveStatus, null, null);
        }
        if (send) {
            driver.transmitPending();
        } else {
            driver.closeRequested();
        }
    }

    /** The peer sent a Terminate (RFC 5040 section 5.4): everything outstanding fails. */
    private void peerTerminated(RdmapSegmentHeader header) {
        TerminateHeader terminate = header.terminate();
        TerminateCause cause = terminate.cause();
        String reason = "terminated by the peer: " + (cause != null ? cause.description()
                : String.format("layer %d, type %d, code 0x%02x", terminate.layer(), terminate.errorType(),
                        terminate.errorCode()));
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, "Terminate received from " + counters.peer() + ": layer "
                    + ExtsockEvents.layerName(terminate.layer()) + ", type " + terminate.errorType() + ", code 0x"
                    + Integer.toHexString(terminate.errorCode()) + " (" + ExtsockEvents.errorName(terminate) + ")");
        }
        ExtsockEvents.terminateReceived(counters.peer(), terminate, reason);
        synchronized (lock) {
            SendWork culprit = readTheTerminateIsAbout(terminate);
            CompletionStatus culpritStatus = cause != null && cause.layer() == ErrorLayer.RDMAP && cause.errorType() == 1
                    ? CompletionStatus.REMOTE_ACCESS_ERROR : CompletionStatus.REMOTE_OPERATION_ERROR;
            end(reason, CompletionStatus.FLUSHED, culprit, culpritStatus);
        }
        driver.closeRequested();
    }

    /**
     * The outstanding RDMA Read a peer's Terminate is about (RFC 5040 section 4.8): the one its
     * copied Read Request header names, else, for an RDMAP remote protection error (which only a
     * Read Request of ours can cause), the oldest; none for other errors (our Writes and Sends
     * left already). Called under the lock.
     */
    private SendWork readTheTerminateIsAbout(TerminateHeader terminate) {
        if (terminate.hasTerminatedReadRequest()) {
            ReadRequestHeader copied = terminate.terminatedReadRequest();
            for (SendWork read : outstandingReads) {
                if (read.sinkRegion != null && read.sinkRegion.stag() == copied.sinkStag()
                        && read.sinkOffset == copied.sinkTaggedOffset() && read.length == copied.readSize()) {
                    return read;
                }
            }
        }
        TerminateCause cause = terminate.cause();
        if (cause != null && cause.layer() == ErrorLayer.RDMAP && cause.errorType() == 1) {
            return outstandingReads.peek();
        }
        return null;
    }

    /** The connection broke under us (reset, end of stream, I/O error). */
    public void connectionLost(String reason) {
        synchronized (lock) {
            if (state == QueuePairState.CONNECTED) {
                end(reason, CompletionStatus.FLUSHED, null, null);
            }
        }
    }

    /** The application closed the socket. */
    public void close() {
        synchronized (lock) {
            if (state == QueuePairState.CONNECTED) {
                end("the connection was closed", CompletionStatus.FLUSHED, null, null);
            }
        }
    }

    /**
     * The gathering write that {@link #frame} filled will not go out whole (the connection
     * broke or closed): the requests whose last bytes were in it are flushed.
     */
    public void transmitAborted(String reason) {
        lentViews.returnAll();
        synchronized (lock) {
            for (SendWork work : lastSegmentInGather) {
                work.finish(CompletionStatus.FLUSHED, reason != null ? reason : failure);
            }
            lastSegmentInGather.clear();
            deliverSendCompletions();
        }
    }

    /**
     * Ends the connection: every request not yet done completes: the {@code culprit} (the Read
     * a peer's Terminate is about) with {@code culpritStatus}, the Receive being filled with
     * {@code receiveStatus}, the rest FLUSHED. Requests whose last bytes are in the gathering
     * write being written wait for it: {@link #transmitted} completes them (they went out) or
     * {@link #transmitAborted} flushes them. Called under the lock.
     */
    private void end(String reason, CompletionStatus receiveStatus, SendWork culprit, CompletionStatus culpritStatus) {
        if (state != QueuePairState.CONNECTED) {
            return;
        }
        state = QueuePairState.ERROR;
        failure = reason;
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, "iWARP connection to " + counters.peer() + " terminating: " + reason);
        }
        for (SendWork work : inFlight) {
            if (!work.done && !lastSegmentInGather.contains(work)) {
                work.finish(work == culprit ? culpritStatus : CompletionStatus.FLUSHED, reason);
            }
        }
        unframed.clear();
        outstandingReads.clear();
        deliverSendCompletions();
        boolean first = true;
        ReceiveWork receive;
        while ((receive = receiveQueue.poll()) != null) {
            CompletionStatus status = first && receive == receiving ? receiveStatus : CompletionStatus.FLUSHED;
            counters.completed(status);
            receive.completer.complete(receive.tag, WorkOpcode.RECEIVE, status, 0, false, 0, reason);
            recycle(receive);
            first = false;
        }
        receiving = null;
        inboundReads.clear();
        registry.closeAll();
    }

    /** A Terminate of ours goes out now: the event and the log line. */
    private void announceTerminateSent(TerminateHeader terminate, String reason) {
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, "Terminate sent to " + counters.peer() + ": layer "
                    + ExtsockEvents.layerName(terminate.layer()) + ", type " + terminate.errorType() + ", code 0x"
                    + Integer.toHexString(terminate.errorCode()) + " (" + ExtsockEvents.errorName(terminate) + "): "
                    + reason);
        }
        ExtsockEvents.terminateSent(counters.peer(), terminate, reason);
    }

    private void recycle(SendWork work) {
        work.clear();
        if (sendPool.size() < SEND_QUEUE_DEPTH) {
            sendPool.add(work);
        }
    }

    private void recycle(ReceiveWork work) {
        work.clear();
        if (receivePool.size() < RECEIVE_QUEUE_DEPTH) {
            receivePool.add(work);
        }
    }
}
