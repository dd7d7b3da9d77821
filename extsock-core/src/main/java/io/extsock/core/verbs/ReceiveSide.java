package io.extsock.core.verbs;

import io.extsock.core.ddp.DdpConstants;
import io.extsock.core.ddp.DdpReceiveBookkeeping;
import io.extsock.core.ddp.TaggedBufferDescription;
import io.extsock.core.ddp.TaggedBufferLookup;
import io.extsock.core.ddp.UntaggedBufferLookup;
import io.extsock.core.mpa.RtrKind;
import io.extsock.core.rdmap.RdmapConstants;
import io.extsock.core.rdmap.RdmapOpcode;
import io.extsock.core.rdmap.RdmapSegmentHeader;
import io.extsock.core.rdmap.SegmentReader;
import io.extsock.core.rdmap.SegmentSink;
import io.extsock.core.rdmap.TerminateHeader;
import io.extsock.core.terminate.ErrorLayer;
import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.MessageType;
import java.nio.ByteBuffer;

/**
 * The queue pair's receive side (siw's {@code siw_qp_rx.c}): the {@link SegmentReader} hands it
 * each segment; it runs DDP's checks (RFC 5041 section 7.1: MSNs, offsets, the buffer each
 * queue or STag names) and passes the segment to its opcode's handler from one table, {@link
 * #handlers}. A rule the peer broke becomes a Terminate (RFC 5040 section 7) built here, from the
 * offending segment's headers.
 *
 * <p>Everything here belongs to the holder of the connection's receive lock; what it shares
 * with posting and the transmit side is in {@link WorkQueues}, behind its lock.
 */
final class ReceiveSide implements SegmentSink {

    private static final System.Logger LOG = System.getLogger(QueuePair.class.getName());

    /** Longest Terminate the peer may send (RFC 5040 section 4.8): the "buffer" of queue 2. */
    private static final int TERMINATE_QUEUE_CAPACITY = 128;

    private final QueuePair qp;
    private final WorkQueues queues;
    private final SegmentReader reader;
    private final DdpReceiveBookkeeping bookkeeping;
    private final RegionPlacementLookup writeTargets;
    private final SendHandler sends;
    private final ReadResponseHandler readResponses;
    /** The dispatch table: each RDMAP opcode's handler, by wire value (RFC 5040 section 4.1). */
    private final OpcodeHandler[] handlers = new OpcodeHandler[16];
    private RdmapOpcode segmentOpcode;
    /** The current segment arrived after the connection ended: neither checked nor placed. */
    private boolean segmentDropped;
    /** A Terminate of ours ended the stream: every octet after it is dropped unread. */
    private boolean stopped;
    /**
     * A responder's first message from a peer-to-peer initiator is its RTR (RFC 6581 section 4):
     * the protocol's, not the application's, so the statistics do not count it.
     */
    private boolean rtrToReceive;

    ReceiveSide(QueuePair qp, WorkQueues queues, WirePipeline pipeline) {
        this.qp = qp;
        this.queues = queues;
        this.rtrToReceive = qp.agreement.waitsForPeerFirstFpdu() && qp.agreement.rtr().isPresent();
        this.writeTargets = RegionPlacementLookup.forRdmaWrite(qp.registry);
        this.bookkeeping = new DdpReceiveBookkeeping(new ReceiveBuffers(), new SinkBuffers());
        this.sends = new SendHandler(qp, queues, bookkeeping);
        this.readResponses = new ReadResponseHandler(qp, queues);
        handlers[RdmapOpcode.RDMA_WRITE.wireValue()] = new WriteHandler(writeTargets);
        handlers[RdmapOpcode.RDMA_READ_REQUEST.wireValue()] = new ReadRequestHandler(qp, queues);
        handlers[RdmapOpcode.RDMA_READ_RESPONSE.wireValue()] = readResponses;
        handlers[RdmapOpcode.SEND.wireValue()] = sends;
        handlers[RdmapOpcode.SEND_WITH_INVALIDATE.wireValue()] = sends;
        handlers[RdmapOpcode.SEND_WITH_SOLICITED_EVENT.wireValue()] = sends;
        handlers[RdmapOpcode.SEND_WITH_SOLICITED_EVENT_AND_INVALIDATE.wireValue()] = sends;
        handlers[RdmapOpcode.TERMINATE.wireValue()] = new TerminateHandler(qp, queues);
        // The other opcodes never get here: RdmapSegmentHeader refuses unsupported ones.
        this.reader = pipeline.reader().apply(this);
    }

    /**
     * Processes received octets. A rule the peer broke ends the connection: a Terminate is
     * queued, every request completes, and the driver is asked to close. So does a fault of ours
     * (any unchecked exception of a codec or handler): nothing but a Terminate leaves here, and
     * after either the stream is over, so everything that follows is dropped (RFC 5041 section 7.1).
     */
    void receive(ByteBuffer staged) {
        qp.registry.fence().enterReceive();  // each call is announced to the region fence, for deregistration
        try {
            dropDeadDestination();
            if (stopped) {
                staged.position(staged.limit());
                return;
            }
            try {
                try {
                    reader.read(staged);
                } catch (ProtocolViolationException e) {
                    stop(staged);
                    protocolViolation(e);
                }
            } catch (RuntimeException | AssertionError bug) {
                stop(staged);
                internalFailure(bug);
            }
        } finally {
            qp.registry.fence().leaveReceive();
        }
    }

    /**
     * The peer closed TCP. Between FPDUs that is how a connection ends; inside one it cut the
     * stream short, which the peer is told by a Terminate (RFC 5044 section 8: TCP connection
     * closed, terminated or lost), so that its own work ends now rather than waiting on us.
     *
     * @return whether a Terminate is on its way (the driver is asked to close once it went)
     */
    boolean peerClosedMidFpdu() {
        if (reader.betweenFpdus()) {
            return false;
        }
        queues.terminateLocally(new TerminateHeader().reset(TerminateCause.LLP_TCP_STREAM_LOST),
                "the peer closed TCP in the middle of an FPDU", CompletionStatus.FLUSHED);
        return true;
    }

    /**
     * Payload octets that may be read from the socket straight into {@link #directTarget()}. A
     * positive answer leaves the fence expecting that read (until the next call here).
     */
    int directCapacity() {
        qp.registry.fence().enterReceive();
        dropDeadDestination();
        int capacity = stopped ? 0 : reader.directCapacity();
        if (capacity > 0) {
            qp.registry.fence().directReadMayFollow();
        } else {
            qp.registry.fence().leaveReceive();
        }
        return capacity;
    }

    ByteBuffer directTarget() {
        return reader.directTarget();
    }

    /** The most octets the next read into staging should take ({@link SegmentReader#stagedReadLength}). */
    int stagedReadLength() {
        return stopped ? Integer.MAX_VALUE : reader.stagedReadLength();
    }

    void placedDirectly(int count) {
        qp.registry.fence().enterReceive();
        try {
            if (stopped) {
                return;
            }
            try {
                reader.placedDirectly(count);
            } catch (RuntimeException | AssertionError bug) {
                stop(null);
                internalFailure(bug);
            }
        } finally {
            qp.registry.fence().leaveReceive();
        }
    }

    /** Whether a Read Request may be accepted now (RFC 5040 section 5.2: at most IRD at once). */
    private boolean inboundReadSlotFree() {
        return queues.inboundReadSlotFree(Math.max(qp.agreement.ird(), rtrReadAllowance()));
    }

    /**
     * The Receive a Send is being placed into, or null: the one the end of the connection must
     * leave out of the pool. Asked under the queue pair's lock, under which it changes.
     */
    ReceiveWork receiveBeingFilled() {
        return sends.receiving();
    }

    /** For tests: puts {@code handler} in the dispatch table in place of the opcode's own. */
    void replaceHandler(RdmapOpcode opcode, OpcodeHandler handler) {
        handlers[opcode.wireValue()] = handler;
    }

    private void stop(ByteBuffer staged) {
        stopped = true;
        if (staged != null) {
            staged.position(staged.limit());
        }
    }

    /**
     * Before placing more: the rest of a payload under way into a region deregistered meanwhile
     * goes nowhere (its octets are still read and checked, see {@link RegionFence}).
     */
    void dropDeadDestination() {
        RegisteredRegion region = qp.registry.fence().lastPlacementRegion();
        if (region != null && region.isDeregistered() && region.isPlacementView(reader.directTarget())) {
            reader.abandonPayload();
        }
    }

    @Override
    public ByteBuffer segmentStarted(RdmapSegmentHeader header) throws ProtocolViolationException {
        segmentOpcode = header.opcode();
        // Once the connection ended (closed, lost, terminated), its requests are flushed and its
        // regions gone: nothing more is placed or completed; only a Terminate still means something.
        boolean sendStarting = !header.ddp().tagged() && header.ddp().messageOffset() == 0
                && header.ddp().queueNumber() == DdpConstants.QN_SEND;
        segmentDropped = !connectedAtSegmentStart(sendStarting) && segmentOpcode != RdmapOpcode.TERMINATE;
        if (segmentDropped) {
            return null;
        }
        if (segmentOpcode == RdmapOpcode.RDMA_READ_RESPONSE) {
            readResponses.segmentArriving();
        }
        bookkeeping.accept(header.ddp());
        MessageType type = ConnectionCounters.typeOf(segmentOpcode);
        if (type != null && type != MessageType.TERMINATE && type != MessageType.RDMA_READ_REQUEST
                && !rtrToReceive) {
            qp.counters.payloadReceived(type, header.ulpPayloadLength());
        }
        return handlers[segmentOpcode.wireValue()].segmentStarted(header);
    }

    /** Only into a stream's own receive buffers ({@link SendHandler#speculativeDestination}). */
    @Override
    public ByteBuffer speculativeDestination(RdmapSegmentHeader unverified) {
        return stopped ? null : sends.speculativeDestination(unverified);
    }

    @Override
    public void segmentComplete(RdmapSegmentHeader header) throws ProtocolViolationException {
        if (segmentDropped) {
            return;
        }
        OpcodeHandler handler = handlers[segmentOpcode.wireValue()];
        handler.segmentPlaced(header);
        if (!header.ddp().last()) {
            return;
        }
        MessageType type = ConnectionCounters.typeOf(segmentOpcode);
        if (rtrToReceive) {
            rtrToReceive = false;
        } else if (type != null && type != MessageType.TERMINATE) {
            qp.counters.messageReceived(type);  // before the completion: who sees that, sees the count
        }
        handler.messageComplete(header);
    }

    /**
     * RFC 5044 section 7.1 / RFC 6581: the first FPDU from the initiator lets the responder
     * send. Also answers, in the same turn of the queue pair's lock, whether the connection
     * still runs, and while it does, a Send's first segment takes the Receive it goes into.
     *
     * @param sendStarting the segment starts a Send (untagged, offset 0, the Send queue)
     */
    private boolean connectedAtSegmentStart(boolean sendStarting) {
        return queues.segmentArriving(sendStarting ? sends : null);
    }

    /** We caught the peer breaking a rule: build the Terminate (RFC 5040 section 7) and end. */
    private void protocolViolation(ProtocolViolationException violation) {
        TerminateCause cause = violation.terminateCause();
        TerminateHeader terminate = new TerminateHeader().reset(cause);
        if (cause.layer() != ErrorLayer.LLP) {
            copyTerminatedHeaders(terminate, cause.layer() == ErrorLayer.RDMAP);
        }
        CompletionStatus receiveStatus = cause == TerminateCause.DDP_UNTAGGED_MESSAGE_TOO_LONG
                ? CompletionStatus.LOCAL_LENGTH_ERROR : CompletionStatus.FLUSHED;
        queues.terminateLocally(terminate, "terminated by this side: " + violation.getMessage(), receiveStatus);
    }

    /**
     * A fault of ours, not the peer's (an unchecked exception out of a codec or handler): RFC
     * 5040 section 7 has the Terminate for it, RDMAP local catastrophic error. Every request
     * completes FLUSHED with that cause, and the log names the bug. Must not throw: it is the
     * receive path's last line.
     */
    private void internalFailure(Throwable bug) {
        LOG.log(System.Logger.Level.ERROR, "iWARP receive processing failed (a bug of this side, not the peer's):"
                + " sending a Terminate, RDMAP local catastrophic error, to " + qp.counters.peer(), bug);
        String reason = "terminated by this side: local catastrophic error: " + bug;
        try {
            TerminateHeader terminate = new TerminateHeader().reset(TerminateCause.RDMAP_LOCAL_CATASTROPHIC);
            try {
                copyTerminatedHeaders(terminate, false);
            } catch (RuntimeException unusable) {
                terminate.reset(TerminateCause.RDMAP_LOCAL_CATASTROPHIC);  // the bare control word will do
            }
            queues.terminateLocally(terminate, reason, CompletionStatus.FLUSHED);
        } catch (RuntimeException | AssertionError again) {
            again.addSuppressed(bug);
            LOG.log(System.Logger.Level.ERROR, "iWARP receive side could not end the connection cleanly", again);
            qp.driver.closeRequested();
        }
    }

    /** RFC 5040 section 4.8: the Terminate carries the offending segment's headers, as far as they came. */
    private void copyTerminatedHeaders(TerminateHeader terminate, boolean readRequestToo) {
        ByteBuffer headers = reader.currentHeaderOctets();
        if (headers.remaining() > 0) {
            terminate.includeTerminatedSegment(headers, 0, reader.currentSegmentLength());
        }
        // The segment's own opcode: null when its headers did not decode (segmentOpcode may
        // still name the segment before).
        if (readRequestToo && reader.currentSegment().opcode() == RdmapOpcode.RDMA_READ_REQUEST) {
            terminate.includeTerminatedReadRequest(reader.currentSegment().readRequest());
        }
    }

    /** A zero-length Read RTR needs one inbound Read slot even if the peer offered IRD 0. */
    int rtrReadAllowance() {
        return qp.agreement.rtr().filter(kind -> kind == RtrKind.ZERO_LENGTH_READ).isPresent() ? 1 : 0;
    }

    /** RFC 5041 section 5: the receive buffer for each untagged queue. A lookup: it claims nothing. */
    private final class ReceiveBuffers implements UntaggedBufferLookup {
        @Override
        public long bufferCapacity(int queueNumber, int messageSequenceNumber) {
            switch (queueNumber) {
                case DdpConstants.QN_SEND:
                    long capacity = sends.bufferCapacity();
                    return capacity >= 0 ? capacity : NO_BUFFER;
                case DdpConstants.QN_READ_REQUEST:
                    // RFC 5040 section 5.2: at most IRD Read Requests are served at once; the
                    // Read Request handler claims the slot.
                    return inboundReadSlotFree() ? RdmapConstants.READ_REQUEST_HEADER_LENGTH : NO_BUFFER;
                case DdpConstants.QN_TERMINATE:
                    return TERMINATE_QUEUE_CAPACITY;
                default:
                    return NO_BUFFER;
            }
        }
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
                readResponses.describeSink(stag, answer);
                return;
            }
            writeTargets.describe(stag, answer);
        }
    }
}
