package io.extsock.core.ddp;

/**
 * What the layer above says about one STag when DDP is about to place data with it: the answer
 * to {@link TaggedBufferLookup#describe}. Reused for every lookup; the last setter called wins.
 *
 * <p>A usable buffer spans the tagged offsets {@code [firstTaggedOffset, firstTaggedOffset +
 * length)}, both unsigned 64-bit values (RFC 5040 section 3.2: the ULP registers a range of
 * tagged offsets with each STag).
 */
public final class TaggedBufferDescription {

    /** The kinds of answer, each mapping to one DDP tagged buffer error or to success. */
    public enum Status {
        /** Valid, associated with this stream, and open to remote placement. */
        USABLE,
        /** No such STag, or it was invalidated: "invalid STag". */
        NO_SUCH_STAG,
        /** Valid, but for another stream or protection domain: "STag not associated with DDP stream". */
        NOT_ASSOCIATED_WITH_STREAM,
        /**
         * Valid and associated, but remote writes are not allowed. DDP has no error code for
         * access rights (RFC 5041 section 7.2); this maps to "invalid STag", as in Linux siw.
         */
        PLACEMENT_NOT_ALLOWED
    }

    private Status status = Status.NO_SUCH_STAG;
    private long firstTaggedOffset;
    private long length;

    public void usable(long firstTaggedOffset, long length) {
        this.status = Status.USABLE;
        this.firstTaggedOffset = firstTaggedOffset;
        this.length = length;
    }

    public void noSuchStag() {
        answer(Status.NO_SUCH_STAG);
    }

    public void notAssociatedWithStream() {
        answer(Status.NOT_ASSOCIATED_WITH_STREAM);
    }

    public void placementNotAllowed() {
        answer(Status.PLACEMENT_NOT_ALLOWED);
    }

    private void answer(Status status) {
        this.status = status;
        this.firstTaggedOffset = 0;
        this.length = 0;
    }

    public Status status() {
        return status;
    }

    public long firstTaggedOffset() {
        return firstTaggedOffset;
    }

    /** The buffer's length in octets, an unsigned 64-bit value. */
    public long length() {
        return length;
    }
}
