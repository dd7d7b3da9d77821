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

/**
 * The queue pair's transmit side (siw's {@code siw_qp_tx.c}): picks the next message (a pending
 * Terminate first, then the RTR, then Read Responses and send-queue messages taking turns),
 * frames it into the engine's gathering write through the {@link MessageWriter}, and completes
 * the requests whose last bytes went out.
 *
 * <p>Its own fields belong to the holder of the connection's transmit lock; what it shares
 * with posting and the receive side is in {@link WorkQueues}, which picks the next message
 * ({@link TransmitOrder}) and calls back here to start it, under its lock.
 */
final class TransmitSide {

    private static final System.Logger LOG = System.getLogger(QueuePair.class.getName());

    private final QueuePair qp;
    private final WorkQueues queues;
    private final MessageWriter writer;
    private final ReadSourceCheck readSources;
    private final MessageSequenceNumbers sendSequence = new MessageSequenceNumbers();
    private final LentViews lentViews = new LentViews();
    private final ReadRequestHeader outgoingRead = new ReadRequestHeader();
    private SendWork framing;
    private InboundRead responding;
    /** A Terminate just started, to announce (event, log) outside the lock. */
    private TerminateHeader terminateStarted;

    TransmitSide(QueuePair qp, WorkQueues queues, MessageWriter writer) {
        this.qp = qp;
        this.queues = queues;
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
                started = queues.startNextMessage(this);
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
        lentViews.returnAll();  // the write is out: its views go back to their regions
        if (queues.transmitted()) {
            qp.driver.closeRequested();  // our Terminate went out
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
            queues.transmitAborted(reason);
        } finally {
            qp.registry.fence().leaveTransmit();
        }
    }

    /** Whether there is anything {@link #frame} would frame now. */
    boolean hasTransmitWork() {
        return queues.hasTransmitWork(writer);
    }

    /** Whether the RTR is all that is queued to send (a message, a response or a Terminate is not). */
    boolean onlyReadyToReceivePending() {
        return queues.onlyReadyToReceivePending(writer);
    }

    // ---- starting the message WorkQueues picked (called back under its lock) ------------

    void startTerminate(TerminateHeader terminate) {
        writer.startTerminate(sendSequence.assign(DdpConstants.QN_TERMINATE), terminate);
        terminateStarted = terminate;  // announced and counted by frame(), outside the lock
    }

    /** Starts the response to {@code read}, unless its source fails the check again (then a Terminate is queued). */
    void startReadResponse(InboundRead read) {
        if (!checkReadResponseSource(read)) {
            return;
        }
        responding = read;
        read.lentViews = lentViews;
        writer.startReadResponse(read.sinkStag, read.sinkTaggedOffset, read);
        qp.counters.messageSent(MessageType.RDMA_READ_RESPONSE, read.size);
    }

    /** False if the request was refused instead (finished, to be reported in its turn): see {@link #startSendWork}. */
    boolean startSend(SendWork work) {
        framing = work;
        if (!startSendWork(work)) {
            framing = null;
            return false;
        }
        return true;
    }

    /**
     * Checks a Read Response's source again now: the application may have deregistered the
     * region since the request arrived (RFC 5042: its STag is then dead). False, with a
     * Terminate queued, if the check fails.
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
            queues.readResponseRefused(read, refused, "terminated by this side: " + refused.description() + ": "
                    + ReadSourceCheck.describe(read.sourceStag, read.sourceTaggedOffset, read.size)
                    + " (the region was deregistered before the response)");
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
        SendWork culprit = framing;
        InboundRead response = responding;
        framing = null;
        responding = null;
        return queues.sourceUnreadable(culprit, response, failure.getMessage(), this);
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
            case RDMA_READ:  // on the wire from now (SendQueue#framing)
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
    void startReadyToReceive() {
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

    /** The message under way is framed, and the next one starts: in one turn of WorkQueues' lock. */
    private boolean messageFramedAndStartNext() {
        InboundRead response = responding;
        SendWork request = framing;
        responding = null;
        framing = null;
        return queues.messageFramedAndStartNext(response, request, this);
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
