package io.extsock.core.ddp;

import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import java.util.Objects;

/**
 * Decides whether the payload of a received tagged segment may be placed: the security check
 * of RFC 5041 section 8.1 ("the Placement information carried in each DDP Segment must be
 * validated ... before any data is Placed"), done for every segment against the STag table of
 * the layer above.
 *
 * <p>Checks, in this order, with the RFC 5041 section 7.2 code each maps to:
 * <ol>
 *   <li>Within an unfinished tagged message, a segment continues it: same STag (section 4.2,
 *       else "invalid STag") and a TO where the previous segment ended (section 5.2, else
 *       "base or bounds violation"); the codes Linux siw uses for the same faults. Only one
 *       tagged message is in flight at a time per direction; untagged segments may come in
 *       between and do not disturb it.</li>
 *   <li>The STag is valid (section 7.1 check 1, "invalid STag"), associated with this stream
 *       (checks 1 and section 8.2, "STag not associated with DDP stream") and allows placement
 *       (check 2; DDP has no access-rights code, so "invalid STag").</li>
 *   <li>TO plus payload length does not wrap 2^64 (check 5, "TO wrap"). Tested before the
 *       bounds so the bounds arithmetic never sees a wrapped sum.</li>
 *   <li>The whole payload lies within the buffer (checks 3 and 4, "base or bounds
 *       violation").</li>
 * </ol>
 * Empty segments are not checked at all: section 7.1 validates non-zero-length segments, and
 * section 5.2 says the STag and TO of a zero-length tagged message "MUST NOT be checked" (the
 * zero-length RDMA Write that RFC 6581 uses as ready-to-receive carries STag 0).
 */
public final class TaggedPlacementChecker {

    private final TaggedBufferLookup buffers;
    private final TaggedBufferDescription answer = new TaggedBufferDescription();

    private boolean inProgress;
    private int messageStag;
    private long nextTaggedOffset;

    public TaggedPlacementChecker(TaggedBufferLookup buffers) {
        this.buffers = Objects.requireNonNull(buffers, "buffers");
    }

    /** Checks one parsed tagged segment; returns normally when its payload may be placed. */
    public void check(DdpSegmentHeader segment) throws ProtocolViolationException {
        if (!segment.tagged()) {
            throw new IllegalArgumentException("not a tagged segment: " + segment);
        }
        int length = segment.payloadLength();
        if (length == 0) {
            if (segment.last()) {
                inProgress = false;
            }
            return;
        }
        int stag = segment.stag();
        long taggedOffset = segment.taggedOffset();
        if (inProgress) {
            if (stag != messageStag) {
                throw new ProtocolViolationException(TerminateCause.DDP_TAGGED_INVALID_STAG,
                        String.format("segment for STag 0x%08x while the message to STag 0x%08x is unfinished;"
                                + " all segments of a message carry its STag (RFC 5041 section 4.2)", stag, messageStag));
            }
            if (taggedOffset != nextTaggedOffset) {
                throw new ProtocolViolationException(TerminateCause.DDP_TAGGED_BASE_OR_BOUNDS,
                        "segment at TO " + Long.toUnsignedString(taggedOffset) + " where the message continues at TO "
                                + Long.toUnsignedString(nextTaggedOffset) + " (RFC 5041 section 5.2)");
            }
        }
        buffers.describe(stag, answer);
        switch (answer.status()) {
            case USABLE:
                break;
            case NO_SUCH_STAG:
                throw new ProtocolViolationException(TerminateCause.DDP_TAGGED_INVALID_STAG,
                        String.format("STag 0x%08x names no valid buffer (RFC 5041 section 7.1 check 1)", stag));
            case NOT_ASSOCIATED_WITH_STREAM:
                throw new ProtocolViolationException(TerminateCause.DDP_TAGGED_STAG_NOT_ASSOCIATED,
                        String.format("STag 0x%08x belongs to another stream or protection domain"
                                + " (RFC 5041 sections 7.1 check 1 and 8.2)", stag));
            case PLACEMENT_NOT_ALLOWED:
                throw new ProtocolViolationException(TerminateCause.DDP_TAGGED_INVALID_STAG,
                        String.format("STag 0x%08x does not allow remote placement (RFC 5041 section 7.1 check 2)", stag));
            default:
                throw new IllegalStateException("unknown answer " + answer.status());
        }
        long end = taggedOffset + length;
        if (Long.compareUnsigned(end, taggedOffset) < 0) {
            throw new ProtocolViolationException(TerminateCause.DDP_TAGGED_TO_WRAP,
                    "TO " + Long.toUnsignedString(taggedOffset) + " plus " + length
                            + " octets wraps 2^64 (RFC 5041 section 7.1 check 5)");
        }
        long first = answer.firstTaggedOffset();
        long bufferLength = answer.length();
        long offsetInBuffer = taggedOffset - first;
        if (Long.compareUnsigned(taggedOffset, first) < 0
                || Long.compareUnsigned(offsetInBuffer, bufferLength) > 0
                || Long.compareUnsigned(bufferLength - offsetInBuffer, length) < 0) {
            throw new ProtocolViolationException(TerminateCause.DDP_TAGGED_BASE_OR_BOUNDS,
                    String.format("%d octets at TO %s fall outside STag 0x%08x's buffer [%s, +%s)"
                                    + " (RFC 5041 section 7.1 checks 3 and 4)", length,
                            Long.toUnsignedString(taggedOffset), stag, Long.toUnsignedString(first),
                            Long.toUnsignedString(bufferLength)));
        }
        if (segment.last()) {
            inProgress = false;
        } else {
            inProgress = true;
            messageStag = stag;
            nextTaggedOffset = end;
        }
    }

    /** Whether a tagged message has begun and its last segment has not yet come. */
    public boolean messageInProgress() {
        return inProgress;
    }
}
