package io.extsock.core.verbs;

import io.extsock.core.rdmap.RdmapSegmentHeader;
import io.extsock.core.rdmap.ReadRequestHeader;
import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import java.nio.ByteBuffer;

/**
 * RDMA Read Request (RFC 5040 sections 4.4 and 5.2): where the peer's Read is answered. The
 * one place that claims an inbound Read slot (IRD), checks the source the peer names (STag,
 * remote-read right, bounds: RFC 5040 section 4.4, RFC 5042) and queues the response for the
 * transmit side. DDP already refused the request if no slot was free (its untagged buffer
 * lookup on queue 1 asks {@link ReceiveSide} whether one is).
 */
final class ReadRequestHandler implements OpcodeHandler {

    private final WorkQueues queues;
    private final ReadSourceCheck readSources;
    private final ReadRequestHeader accepted = new ReadRequestHeader();
    private boolean requestAccepted;

    ReadRequestHandler(QueuePair qp, WorkQueues queues) {
        this.queues = queues;
        this.readSources = new ReadSourceCheck(qp.registry);
    }

    @Override
    public ByteBuffer segmentStarted(RdmapSegmentHeader header) throws ProtocolViolationException {
        requestAccepted = false;
        queues.claimInboundReadSlot();
        checkSource(header.readRequest());
        accepted.copyFrom(header.readRequest());
        requestAccepted = true;
        return null;
    }

    @Override
    public void messageComplete(RdmapSegmentHeader header) {
        if (requestAccepted) {
            queueResponse();
        }
    }

    /** RFC 5040 section 4.4: the source must be a region the peer may read, the range within it. */
    private void checkSource(ReadRequestHeader request) throws ProtocolViolationException {
        if (request.readSize() == 0) {
            return;  // zero length: nothing to check (RFC 5040 section 5.2, the RTR)
        }
        TerminateCause refused = readSources.check(request.sourceStag(), request.sourceTaggedOffset(),
                request.readSize());
        if (refused != null) {
            throw new ProtocolViolationException(refused, ReadSourceCheck.describe(request.sourceStag(),
                    request.sourceTaggedOffset(), request.readSize()));
        }
    }

    /** Hands the accepted request to the transmit side, which checks the source again when it frames. */
    private void queueResponse() {
        queues.queueReadResponse(accepted);
    }
}
