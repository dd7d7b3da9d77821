package io.extsock.core.ddp;

/**
 * How DDP asks the layer above, which owns the STag table, what an STag in an incoming tagged
 * segment refers to (RFC 5041 sections 7.1 and 8.2: the STag must be valid, associated with
 * this stream, and allow placement). DDP asks for every non-empty tagged segment, because a
 * Send with Invalidate may end an STag between two segments of one message.
 *
 * <p>The layer above answers into a description that DDP owns and reuses, so that the lookup
 * allocates nothing.
 */
@FunctionalInterface
public interface TaggedBufferLookup {

    /** Describes {@code stag} for placing incoming data on this stream, by calling one of the answer's setters. */
    void describe(int stag, TaggedBufferDescription answer);
}
