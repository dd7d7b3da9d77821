package io.extsock.core.verbs;

import io.extsock.core.ddp.DdpConstants;
import io.extsock.core.ddp.MessageSequenceNumbers;
import io.extsock.core.events.ExtsockEvents;
import io.extsock.core.mpa.GatherWrite;
import io.extsock.core.mpa.RtrKind;
import io.extsock.core.rdmap.MessagePayload;
import io.extsock.core.rdmap.MessageWriter;
import io.extsock.core.rdmap.RdmapOpcode;
import io.extsock.core.rdmap.ReadRequestHeader;
import io.extsock.core.rdmap.TerminateHeader;
import io.extsock.core.terminate.TerminateCause;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.MessageType;
import io.extsock.verbs.WorkOpcode;
import java.util.ArrayList;
import java.util.List;

/**
 * The queue pair's transmit side (siw's {@code siw_qp_tx.c}): picks the next message (a pending
 * Terminate first, then the RTR, then Read Responses and send-queue messages taking turns),
 * frames it into the engine's gathering write through the {@link MessageWriter}, and completes
 * the requests whose last bytes went out.
 *
 * <p>Its own fields belong to the holder of the connection's transmit lock; what it shares
 * with posting and the receive side it reads and changes under the queue pair's lock.
 */
final class TransmitSide {

    private static final System.Logger LOG = System.getLogger(QueuePair.class.getName());

    private final QueuePair qp;
    private final MessageWriter writer;
    private final ReadSourceCheck readSources;
    private final MessageSequenceNumbers sendSequence = new MessageSequenceNumbers();
    /** Requests whose last segment is in the gathering write being written; under the lock. */
    private final List<SendWork> lastSegmentInGather = new ArrayList<>();
    private final LentViews lentViews = new LentViews();
    private final ReadRequestHeader outgoingRead = new ReadRequestHeader();
    private SendWork framing;
    private InboundRead responding;
    private boolean terminateFramed;
    private boolean terminateInGather;
    /** A Terminate just started, to announce (event, log) outside the lock. */
    private TerminateHeader terminateStarted;
    private boolean preferReadResponse;

    TransmitSide(QueuePair qp, MessageWriter writer) {
        this.qp = qp;
        this.writer = writer;
        this.readSources = new ReadSourceCheck(qp.registry);
    }

    /**
     * Frames what is ready to go into the gathering write: a pending Terminate first, then the
     * RTR, then Read Responses and send-queue messages taking turns.
     *
     * @return whether anything was framed
     */
    boolean frame(GatherWrite out) {
        qp.registry.fence().enterTransmit();  // each call is announced to the region fence, for deregistration
        try {
            boolean framed = frameUnfenced(out);
            if (out.isEmpty()) {
                lentViews.returnAll();  // a message that failed before its first segment: no write will return them
            }
            return framed;
        } finally {
            qp.registry.fence().leaveTransmit();
        }
    }

    private boolean frameUnfenced(GatherWrite out) {
        boolean framed = false;
        while (true) {
            boolean started;
            if (writer.inProgress()) {
                framed = true;  // whole FPDUs of it may be in the gather even if its source fails
                try {
                    if (!writer.writeTo(out)) {
                        return true;  // the gather is full: write it, then call again
                    }
                    started = messageFramedAndStartNext();
                } catch (SourceUnreadableException e) {
                    started = sourceUnreadable(e);  // a Terminate instead of the rest of the message
                }
            } else {
                started = startNextMessage();
            }
            if (!started) {
                return framed;
            }
            if (terminateStarted != null) {
                announceTerminateSent(terminateStarted, qp.failure());
                terminateStarted = null;
                qp.counters.messageSent(MessageType.TERMINATE, 0);  // after the event: who sees the count sees it
            }
        }
    }

    /** The gathering write that {@link #frame} filled went out whole. */
    void transmitted() {
        qp.registry.fence().enterTransmit();
        try {
            transmittedUnfenced();
        } finally {
            qp.registry.fence().leaveTransmit();
        }
    }

    private void transmittedUnfenced() {
        boolean closeNow = false;
        lentViews.returnAll();  // the write is out: its views go back to their regions
        synchronized (qp.lock) {
            for (int i = 0; i < lastSegmentInGather.size(); i++) {  // indexed: no iterator per write
                lastSegmentInGather.get(i).finish(CompletionStatus.SUCCESS, null, CompletionCause.NONE);
            }
            lastSegmentInGather.clear();
            qp.deliverSendCompletions();
            if (terminateInGather) {
                terminateInGather = false;
                closeNow = true;
            }
        }
        if (closeNow) {
            qp.driver.closeRequested();
        }
    }

    /**
     * The gathering write that {@link #frame} filled will not go out whole (the connection
     * broke or closed): the requests whose last bytes were in it are flushed.
     */
    void transmitAborted(String reason) {
        qp.registry.fence().enterTransmit();
        try {
            lentViews.returnAll();
            synchronized (qp.lock) {
                for (int i = 0; i < lastSegmentInGather.size(); i++) {
                    lastSegmentInGather.get(i).finish(CompletionStatus.FLUSHED, reason != null ? reason : qp.failure,
                            qp.failureCause != null ? qp.failureCause : CompletionCause.CONNECTION_LOST);
                }
                lastSegmentInGather.clear();
                qp.deliverSendCompletions();
            }
        } finally {
            qp.registry.fence().leaveTransmit();
        }
    }

    /** Whether the request's last bytes are in the gathering write being written. Under the lock. */
    boolean lastSegmentInGather(SendWork work) {
        return lastSegmentInGather.contains(work);
    }

    /** Whether there is anything {@link #frame} would frame now. */
    boolean hasTransmitWork() {
        synchronized (qp.lock) {
            if (writer.inProgress() || qp.terminateToSend != null && !terminateFramed) {
                return true;
            }
            if (qp.state != QueuePairState.CONNECTED || !qp.transmitGateOpen) {
                return false;
            }
            return qp.rtrToSend || !qp.inboundReads.isEmpty() || readyToFrame(qp.unframed.peek());
        }
    }

    /** Whether the RTR is all that is queued to send (a message, a response or a Terminate is not). */
    boolean onlyReadyToReceivePending() {
        synchronized (qp.lock) {
            return qp.rtrToSend && !writer.inProgress() && qp.terminateToSend == null && qp.inboundReads.isEmpty()
                    && qp.unframed.peek() == null;
        }
    }

    private boolean startNextMessage() {
        synchronized (qp.lock) {
            if (qp.terminateToSend != null && !terminateFramed) {
                terminateFramed = true;
                writer.startTerminate(sendSequence.assign(DdpConstants.QN_TERMINATE), qp.terminateToSend);
                terminateStarted = qp.terminateToSend;  // announced and counted by frame(), outside the lock
                return true;
            }
            if (qp.state != QueuePairState.CONNECTED || !qp.transmitGateOpen) {
                return false;
            }
            if (qp.rtrToSend) {
                qp.rtrToSend = false;
                startReadyToReceive();
                return true;
            }
            SendWork next = qp.unframed.peek();
            boolean sendReady = readyToFrame(next);
            boolean responseReady = !qp.inboundReads.isEmpty();
            if (responseReady && (preferReadResponse || !sendReady)) {
                preferReadResponse = false;
                responding = qp.inboundReads.poll();
                if (!checkReadResponseSource(responding)) {
                    return true;  // the region went away meanwhile: a Terminate is queued instead
                }
                responding.lentViews = lentViews;
                writer.startReadResponse(responding.sinkStag, responding.sinkTaggedOffset, responding);
                qp.counters.messageSent(MessageType.RDMA_READ_RESPONSE, responding.size);
                return true;
            }
            if (!sendReady) {
                return false;
            }
            preferReadResponse = true;  // RFC 5040 section 5.2: responses take turns with new work
            framing = qp.unframed.poll();
            if (!startSendWork(framing)) {
                framing = null;  // refused before any of it went out: the next message's turn
            }
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
        RegisteredRegion source = refused == null ? qp.registry.lookup(read.sourceStag) : null;
        if (refused == null && (source == null || !source.holdForTransmit())) {
            refused = TerminateCause.RDMAP_INVALID_STAG;  // deregistered since the check (RegionFence)
        }
        if (refused != null) {
            responding = null;
            String reason = "terminated by this side: " + refused.description() + ": "
                    + ReadSourceCheck.describe(read.sourceStag, read.sourceTaggedOffset, read.size)
                    + " (the region was deregistered before the response)";
            qp.inboundReads.release(read);
            endWithTerminate(refused, reason, null, null);
            return false;
        }
        read.source = source;
        return true;
    }

    /**
     * The message being framed lost its source: a file region's bytes could not be read. What
     * went out of it cannot be taken back, so the connection ends: a Terminate (RDMAP local
     * catastrophic error, as siw reports its own transmit faults) follows the FPDUs framed so
     * far, and the request whose source it was completes LOCAL_OPERATION_ERROR (a Read
     * Response's requester learns it from the Terminate). Once the connection has ended anyway
     * (its end closed the file under the read), the message is simply dropped.
     *
     * @return whether a Terminate was started, to frame next
     */
    private boolean sourceUnreadable(SourceUnreadableException failure) {
        writer.abandon();
        synchronized (qp.lock) {
            SendWork culprit = framing;
            framing = null;
            if (culprit != null && culprit.opcode != WorkOpcode.RDMA_READ) {
                culprit.releaseFileRegionsAfterWrite();
            }
            if (responding != null) {
                if (responding.source != null) {
                    lentViews.releaseHoldAfterWrite(responding.source);
                }
                qp.inboundReads.release(responding);
                responding = null;
            }
            if (qp.state == QueuePairState.CONNECTED) {
                endWithTerminate(TerminateCause.RDMAP_LOCAL_CATASTROPHIC, "terminated by this side: "
                        + failure.getMessage(), culprit, CompletionStatus.LOCAL_OPERATION_ERROR);
            } else if (culprit != null && !culprit.done) {
                culprit.finish(CompletionStatus.FLUSHED, qp.failure, qp.failureCause);
                qp.deliverSendCompletions();
            }
            return startNextMessage();
        }
    }

    /**
     * A fault found while framing ends the connection: the Terminate is queued, to be framed
     * next (the transmit side cannot wait for the receive side), and the queue pair ends. Under
     * the lock.
     */
    private void endWithTerminate(TerminateCause cause, String reason, SendWork culprit,
                                  CompletionStatus culpritStatus) {
        qp.terminateToSend = new TerminateHeader().reset(cause);
        qp.end(reason, CompletionCause.terminateSent(cause.layer().wireValue(), cause.errorType(), cause.errorCode()),
                CompletionStatus.FLUSHED, culprit, culpritStatus);
    }

    /** A send-queue head may go unless it is a Read beyond the negotiated ORD. */
    private boolean readyToFrame(SendWork next) {
        return next != null && (next.opcode != WorkOpcode.RDMA_READ || qp.outstandingReads.size() < qp.agreement.ord());
    }

    /** False if the request was refused instead: its file region was deregistered before it started. */
    private boolean startSendWork(SendWork work) {
        work.lentViews = lentViews;
        if (work.opcode != WorkOpcode.RDMA_READ) {
            RegisteredRegion gone = work.holdFileRegions();
            if (gone != null) {
                work.finish(CompletionStatus.LOCAL_PROTECTION_ERROR, "gather: " + gone + " was deregistered before"
                        + " this request was sent (keep a file region registered until its Sends and Writes"
                        + " complete)", CompletionCause.NONE);
                qp.deliverSendCompletions();
                return false;
            }
        }
        switch (work.opcode) {
            case SEND:
                RdmapOpcode variant = work.invalidate
                        ? (work.solicited ? RdmapOpcode.SEND_WITH_SOLICITED_EVENT_AND_INVALIDATE
                                : RdmapOpcode.SEND_WITH_INVALIDATE)
                        : (work.solicited ? RdmapOpcode.SEND_WITH_SOLICITED_EVENT : RdmapOpcode.SEND);
                writer.startSend(variant, work.invalidate ? work.invalidateStag : 0,
                        sendSequence.assign(DdpConstants.QN_SEND), work);
                qp.counters.messageSent(MessageType.SEND, work.length);
                break;
            case RDMA_WRITE:
                writer.startWrite(work.remoteStag, work.remoteOffset, work);
                qp.counters.messageSent(MessageType.RDMA_WRITE, work.length);
                break;
            case RDMA_READ:
                qp.outstandingReads.add(work);
                qp.counters.messageSent(MessageType.RDMA_READ_REQUEST, 0);
                writer.startReadRequest(sendSequence.assign(DdpConstants.QN_READ_REQUEST), outgoingRead
                        .set(work.sinkRegion.stag(), work.sinkOffset, work.length, work.remoteStag, work.remoteOffset));
                break;
            default:
                throw new IllegalStateException("not a send-queue operation: " + work.opcode);
        }
        return true;
    }

    /**
     * RFC 6581 section 4: the zero-length message that lets the responder talk. The protocol's,
     * not the application's: the statistics count no message for it (its octets are in the
     * bytes sent).
     */
    private void startReadyToReceive() {
        RtrKind kind = qp.agreement.rtr().orElseThrow();
        switch (kind) {
            case ZERO_LENGTH_WRITE:
                writer.startWrite(0, 0, MessagePayload.EMPTY);
                break;
            case ZERO_LENGTH_READ:
                writer.startReadRequest(sendSequence.assign(DdpConstants.QN_READ_REQUEST),
                        outgoingRead.set(0, 0, 0, 0, 0));
                break;
            default:
                writer.startSend(RdmapOpcode.SEND, 0, sendSequence.assign(DdpConstants.QN_SEND), MessagePayload.EMPTY);
        }
    }

    /**
     * {@link #messageFramed} and {@link #startNextMessage} in one turn of the lock (taken again
     * inside, reentrantly, at no cost): every message framed comes this way.
     */
    private boolean messageFramedAndStartNext() {
        synchronized (qp.lock) {
            messageFramed();
            return startNextMessage();
        }
    }

    /** The current message's last segment is in the gather. */
    private void messageFramed() {
        synchronized (qp.lock) {
            if (responding != null) {
                InboundRead done = responding;
                responding = null;
                if (done.source != null) {
                    lentViews.releaseHoldAfterWrite(done.source);
                }
                qp.inboundReads.release(done);
            } else if (framing != null) {
                if (framing.opcode != WorkOpcode.RDMA_READ) {
                    framing.releaseFileRegionsAfterWrite();
                    if (qp.state == QueuePairState.CONNECTED) {
                        lastSegmentInGather.add(framing);  // complete once the bytes left
                    }
                }
                framing = null;
            } else if (terminateFramed && qp.terminateToSend != null) {
                terminateInGather = true;
                qp.terminateToSend = null;
            }
        }
    }

    /** A Terminate of ours goes out now: the event and the log line. */
    private void announceTerminateSent(TerminateHeader terminate, String reason) {
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, "Terminate sent to " + qp.counters.peer() + ": layer "
                    + ExtsockEvents.layerName(terminate.layer()) + ", type " + terminate.errorType() + ", code 0x"
                    + Integer.toHexString(terminate.errorCode()) + " (" + ExtsockEvents.errorName(terminate) + "): "
                    + reason);
        }
        ExtsockEvents.terminateSent(qp.counters.peer(), terminate, reason);
    }
}
