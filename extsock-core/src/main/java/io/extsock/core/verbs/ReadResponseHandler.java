package io.extsock.core.verbs;

import io.extsock.core.mpa.RtrKind;
import io.extsock.core.rdmap.RdmapSegmentHeader;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import java.nio.ByteBuffer;

/**
 * RDMA Read Response (RFC 5040 section 4.5): tagged, into the sink of the oldest Read this
 * side has outstanding (responses come in request order, RFC 5040 section 5.2). DDP's tagged
 * check (the receive side's sink lookup) kept the segment within that sink; the last segment
 * completes the Read, and a Read waiting for ORD room may go.
 */
final class ReadResponseHandler implements OpcodeHandler {

    private final QueuePair qp;
    /** RFC 6581: our zero-length Read RTR's response, which completes nothing. */
    private boolean rtrResponseExpected;

    ReadResponseHandler(QueuePair qp) {
        this.qp = qp;
        this.rtrResponseExpected = qp.agreement.sendsRtr() && qp.agreement.rtr().get() == RtrKind.ZERO_LENGTH_READ;
    }

    /** The Read a response's segments go to: the oldest outstanding. */
    SendWork outstandingReadHead() {
        synchronized (qp.lock) {
            return qp.outstandingReads.peek();
        }
    }

    @Override
    public ByteBuffer segmentStarted(RdmapSegmentHeader header) {
        int length = header.ulpPayloadLength();
        if (length == 0) {
            return null;
        }
        // DDP's check kept the segment within the outstanding Read's sink range.
        return outstandingReadHead().sinkRegion.placementWindow(header.ddp().taggedOffset(), length);
    }

    @Override
    public void messageComplete(RdmapSegmentHeader header) {
        if (rtrResponseExpected) {
            rtrResponseExpected = false;
            return;
        }
        synchronized (qp.lock) {
            SendWork read = qp.outstandingReads.poll();
            read.finish(CompletionStatus.SUCCESS, null, CompletionCause.NONE);
            qp.deliverSendCompletions();
        }
        qp.driver.transmitPending();  // a Read waiting for ORD room may go now
    }
}
