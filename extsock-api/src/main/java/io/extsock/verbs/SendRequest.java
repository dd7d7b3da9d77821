package io.extsock.verbs;

/**
 * An RDMAP Send (RFC 5040 section 5.3): the gathered bytes land in the buffer of the peer's
 * next posted Receive. Optionally with Solicited Event, and with Invalidate of one of the
 * peer's STags.
 */
public final class SendRequest extends WorkRequest {

    private final Slices gather = new Slices();
    private boolean solicited;
    private boolean invalidate;
    private int invalidateStag;

    public SendRequest tag(long tag) {
        setTag(tag);
        return this;
    }

    /** The bytes to send, in order; no slices for a zero-length Send. */
    public SendRequest gather(RegionSlice... slices) {
        gather.set(slices);
        return this;
    }

    /** Sets Solicited Event: the peer's completion is marked solicited. */
    public SendRequest solicited(boolean solicited) {
        this.solicited = solicited;
        return this;
    }

    /** Sends with Invalidate: the peer invalidates its region with this STag on arrival. */
    public SendRequest invalidate(int stag) {
        this.invalidate = true;
        this.invalidateStag = stag;
        return this;
    }

    /** Sends without Invalidate (the default). */
    public SendRequest noInvalidate() {
        this.invalidate = false;
        this.invalidateStag = 0;
        return this;
    }

    public int sliceCount() {
        return gather.count();
    }

    public RegionSlice slice(int index) {
        return gather.get(index);
    }

    public long length() {
        return gather.totalLength();
    }

    public boolean isSolicited() {
        return solicited;
    }

    public boolean isInvalidate() {
        return invalidate;
    }

    public int invalidateStag() {
        return invalidateStag;
    }

    @Override
    public WorkOpcode opcode() {
        return WorkOpcode.SEND;
    }
}
