package io.extsock.verbs;

/**
 * A buffer for the next Send the peer makes (RFC 5040 section 5.3): Receives are matched to
 * incoming Sends in the order they were posted. A Send that arrives when no Receive is posted
 * is a protocol error that ends the connection (RFC 5041 section 7.2).
 */
public final class ReceiveRequest extends WorkRequest {

    private final Slices scatter = new Slices();

    public ReceiveRequest tag(long tag) {
        setTag(tag);
        return this;
    }

    /** Where the incoming bytes go, in order; the slices need {@link Access#LOCAL_WRITE}. */
    public ReceiveRequest scatter(RegionSlice... slices) {
        scatter.set(slices);
        return this;
    }

    public int sliceCount() {
        return scatter.count();
    }

    public RegionSlice slice(int index) {
        return scatter.get(index);
    }

    public long length() {
        return scatter.totalLength();
    }

    @Override
    public WorkOpcode opcode() {
        return WorkOpcode.RECEIVE;
    }
}
