package io.extsock.core.verbs;

import io.extsock.core.events.ExtsockEvents;
import io.extsock.core.rdmap.RdmapSegmentHeader;
import io.extsock.core.rdmap.TerminateHeader;
import io.extsock.core.terminate.ErrorLayer;
import io.extsock.core.terminate.TerminateCause;
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
    private final WorkQueues queues;

    TerminateHandler(QueuePair qp, WorkQueues queues) {
        this.qp = qp;
        this.queues = queues;
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
        // The Read it is about (SendQueue#readTheTerminateIsAbout) completes with the peer's refusal.
        CompletionStatus culpritStatus = cause != null && cause.layer() == ErrorLayer.RDMAP && cause.errorType() == 1
                ? CompletionStatus.REMOTE_ACCESS_ERROR : CompletionStatus.REMOTE_OPERATION_ERROR;
        queues.endByPeerTerminate(terminate, reason, culpritStatus);
        qp.driver.closeRequested();
        qp.counters.messageReceived(MessageType.TERMINATE);  // after its event: who sees the count, sees it
    }
}
