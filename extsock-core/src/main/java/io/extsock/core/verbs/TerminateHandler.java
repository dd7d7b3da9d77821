package io.extsock.core.verbs;

import io.extsock.core.events.ExtsockEvents;
import io.extsock.core.rdmap.RdmapSegmentHeader;
import io.extsock.core.rdmap.ReadRequestHeader;
import io.extsock.core.rdmap.TerminateHeader;
import io.extsock.core.terminate.ErrorLayer;
import io.extsock.core.terminate.TerminateCause;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.MessageType;
import java.nio.ByteBuffer;

/**
 * Terminate (RFC 5040 sections 4.8 and 5.4): the peer ends the connection for a rule we broke.
 * Everything outstanding completes: the Read the Terminate is about with a remote error, the
 * rest FLUSHED; then the engine closes.
 */
final class TerminateHandler implements OpcodeHandler {

    private static final System.Logger LOG = System.getLogger(QueuePair.class.getName());

    private final QueuePair qp;

    TerminateHandler(QueuePair qp) {
        this.qp = qp;
    }

    @Override
    public ByteBuffer segmentStarted(RdmapSegmentHeader header) {
        return null;  // the Terminate's headers are all there is; SegmentReader copied them
    }

    @Override
    public void messageComplete(RdmapSegmentHeader header) {
        TerminateHeader terminate = header.terminate();
        TerminateCause cause = terminate.cause();
        String reason = "terminated by the peer: " + (cause != null ? cause.description()
                : String.format("layer %d, type %d, code 0x%02x", terminate.layer(), terminate.errorType(),
                        terminate.errorCode()));
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, "Terminate received from " + qp.counters.peer() + ": layer "
                    + ExtsockEvents.layerName(terminate.layer()) + ", type " + terminate.errorType() + ", code 0x"
                    + Integer.toHexString(terminate.errorCode()) + " (" + ExtsockEvents.errorName(terminate) + ")");
        }
        ExtsockEvents.terminateReceived(qp.counters.peer(), terminate, reason);
        synchronized (qp.lock) {
            SendWork culprit = readTheTerminateIsAbout(terminate);
            CompletionStatus culpritStatus = cause != null && cause.layer() == ErrorLayer.RDMAP && cause.errorType() == 1
                    ? CompletionStatus.REMOTE_ACCESS_ERROR : CompletionStatus.REMOTE_OPERATION_ERROR;
            qp.end(reason, CompletionCause.terminateReceived(terminate.layer(), terminate.errorType(),
                    terminate.errorCode()), CompletionStatus.FLUSHED, culprit, culpritStatus);
        }
        qp.driver.closeRequested();
        qp.counters.messageReceived(MessageType.TERMINATE);  // after its event: who sees the count, sees it
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
            for (SendWork read : qp.outstandingReads) {
                if (read.sinkRegion != null && read.sinkRegion.stag() == copied.sinkStag()
                        && read.sinkOffset == copied.sinkTaggedOffset() && read.length == copied.readSize()) {
                    return read;
                }
            }
        }
        TerminateCause cause = terminate.cause();
        if (cause != null && cause.layer() == ErrorLayer.RDMAP && cause.errorType() == 1) {
            return qp.outstandingReads.peek();
        }
        return null;
    }
}
