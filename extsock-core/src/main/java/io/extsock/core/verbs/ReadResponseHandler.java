package io.extsock.core.verbs;

import io.extsock.core.ddp.TaggedBufferDescription;
import io.extsock.core.mpa.RtrKind;
import io.extsock.core.rdmap.RdmapSegmentHeader;
import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import java.nio.ByteBuffer;

/**
 * RDMA Read Response (RFC 5040 section 4.5): tagged, into the sink of the oldest Read this
 * side has outstanding (responses come in request order, RFC 5040 section 5.2). A response
 * must fill exactly that sink: its first octet at the sink's first TO, its last at the sink's
 * end (the check siw makes too). What a response may not do, and the Terminate each gets:
 * <ul>
 *   <li>carry payload when no Read is outstanding, or to another STag than the sink's: DDP
 *       tagged buffer error, invalid STag (RFC 5041 section 7.1 check 1; DDP asks {@link
 *       #describeSink});</li>
 *   <li>start elsewhere than the sink's first TO, or end short of or past its end: DDP
 *       tagged buffer error, base or bounds violation (RFC 5041 section 7.1 checks 3 and 4);</li>
 *   <li>arrive with no payload when no Read is outstanding: DDP checks nothing of an empty
 *       tagged message (RFC 5041 section 5.2), so RDMAP does: a Read Response is not a
 *       message this side expects now, RDMAP remote operation error, unexpected opcode
 *       (RFC 5040 sections 5.2 and 7.2).</li>
 * </ul>
 * The Read a response goes to is bound at its first segment, sink and all, so that a flush on
 * another thread (which clears and recycles the outstanding Reads) never pulls it from under a
 * segment being placed; the last segment completes it, and a Read waiting for ORD room may go.
 * A Read whose sink the application closed before the response was placed completes with
 * LOCAL_PROTECTION_ERROR: from the close on, the response's octets go nowhere ({@link
 * RegisteredRegion#placementWindow}), and SUCCESS promises they are in the sink.
 */
final class ReadResponseHandler implements OpcodeHandler {

    private final WorkQueues queues;
    /** RFC 6581: our zero-length Read RTR's response, which completes nothing. */
    private boolean rtrResponseExpected;

    /** Whether a response's first segment arrived and its last has not. */
    private boolean inMessage;
    /** The Read the current response fills (null: none outstanding, or the RTR's). */
    private SendWork read;
    private RegisteredRegion sink;
    private long sinkStart;
    private long readLength;
    /** Octets of the current response accepted so far. */
    private long received;

    ReadResponseHandler(QueuePair qp, WorkQueues queues) {
        this.queues = queues;
        this.rtrResponseExpected = qp.agreement.sendsRtr() && qp.agreement.rtr().get() == RtrKind.ZERO_LENGTH_READ;
    }

    /**
     * A Read Response segment arrived (before DDP's checks): at a response's first segment,
     * binds it to the oldest outstanding Read.
     */
    void segmentArriving() {
        if (inMessage) {
            return;
        }
        inMessage = true;
        received = 0;
        read = null;
        sink = null;
        if (rtrResponseExpected) {
            return;  // the RTR's response: no sink, no payload allowed
        }
        queues.bindOldestRead(this);
    }

    /**
     * The response is to {@code oldest}, our oldest outstanding Read (null: none). Under the
     * queue pair's lock: a flush recycles outstanding Reads, so their fields are copied here.
     */
    void bind(SendWork oldest) {
        read = oldest;
        if (oldest != null) {
            sink = oldest.sinkRegion;
            sinkStart = oldest.sinkOffset;
            readLength = oldest.length;
        }
    }

    /** DDP's tagged lookup for a Read Response: only the bound Read's sink is a valid buffer. */
    void describeSink(int stag, TaggedBufferDescription answer) {
        if (sink != null && sink.stag() == stag) {
            answer.usable(sinkStart, readLength);
        } else {
            answer.noSuchStag();
        }
    }

    @Override
    public ByteBuffer segmentStarted(RdmapSegmentHeader header) throws ProtocolViolationException {
        int length = header.ulpPayloadLength();
        boolean last = header.ddp().last();
        if (read == null && !rtrResponseExpected) {
            // Only an empty segment gets here: DDP refused a non-empty one (no sink, invalid STag).
            throw new ProtocolViolationException(TerminateCause.RDMAP_UNEXPECTED_OPCODE,
                    "an RDMA Read Response while no RDMA Read is outstanding (RFC 5040 section 5.2)");
        }
        if (length > 0 && header.ddp().taggedOffset() != sinkStart + received) {
            throw new ProtocolViolationException(TerminateCause.DDP_TAGGED_BASE_OR_BOUNDS, String.format(
                    "Read Response segment at TO %s where the Read's sink continues at TO %d"
                            + " (RFC 5040 section 4.5: the response fills the sink from its start)",
                    Long.toUnsignedString(header.ddp().taggedOffset()), sinkStart + received));
        }
        long expected = rtrResponseExpected ? 0 : readLength;
        if (last && received + length != expected) {
            throw new ProtocolViolationException(TerminateCause.DDP_TAGGED_BASE_OR_BOUNDS,
                    "Read Response of " + (received + length) + " octets for an RDMA Read of " + expected
                            + " (RFC 5040 section 4.5: the response carries exactly the Read's size)");
        }
        received += length;
        if (last) {
            inMessage = false;
        }
        return length == 0 ? null : sink.placementWindow(header.ddp().taggedOffset(), length);
    }

    @Override
    public void messageComplete(RdmapSegmentHeader header) {
        if (rtrResponseExpected) {
            rtrResponseExpected = false;
            return;
        }
        SendWork done = read;
        RegisteredRegion filled = sink;
        read = null;
        sink = null;
        queues.readResponded(done, filled, this);
    }

    /** The Read the response filled, {@code done}, finishes. Under the queue pair's lock (called back by it). */
    void finish(SendWork done, RegisteredRegion filled) {
        if (filled.isDeregistered()) {
            // Placement stopped at the close (RegionFence): SUCCESS would say the octets are in the sink.
            done.finish(CompletionStatus.LOCAL_PROTECTION_ERROR, "RDMA Read sink: the region was closed"
                    + " before the Read Response was placed in it (the response's octets were dropped)",
                    CompletionCause.LOCAL_CHECK);
        } else {
            done.finish(CompletionStatus.SUCCESS, null, CompletionCause.NONE);
        }
    }
}
