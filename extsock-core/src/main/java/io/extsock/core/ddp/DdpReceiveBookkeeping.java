package io.extsock.core.ddp;

import io.extsock.core.terminate.ProtocolViolationException;

/**
 * All receive-side DDP state of one stream direction: the untagged queues and the tagged
 * message in flight, kept apart so that tagged and untagged segments may interleave (hardware
 * sends a Send between two segments of a Read Response). Feed it every parsed segment in
 * arrival order; after the first rejection the stream is over and further segments must be
 * dropped (RFC 5041 section 7.1).
 */
public final class DdpReceiveBookkeeping {

    private final UntaggedMessageTracker untagged;
    private final TaggedPlacementChecker tagged;

    public DdpReceiveBookkeeping(UntaggedBufferLookup untaggedBuffers, TaggedBufferLookup taggedBuffers) {
        this.untagged = new UntaggedMessageTracker(untaggedBuffers);
        this.tagged = new TaggedPlacementChecker(taggedBuffers);
    }

    /**
     * Checks and records one segment.
     *
     * @return true when the segment is the last of its message
     */
    public boolean accept(DdpSegmentHeader segment) throws ProtocolViolationException {
        if (segment.tagged()) {
            tagged.check(segment);
            return segment.last();
        }
        return untagged.accept(segment);
    }

    public UntaggedMessageTracker untagged() {
        return untagged;
    }

    public TaggedPlacementChecker tagged() {
        return tagged;
    }
}
