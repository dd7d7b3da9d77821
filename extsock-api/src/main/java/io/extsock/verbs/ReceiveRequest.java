package io.extsock.verbs;

/**
 * A buffer for the next Send the peer makes (RFC 5040 section 5.3): Receives are matched to
 * incoming Sends in the order they were posted. A Send that arrives when no Receive is posted
 * is a protocol error that ends the connection (RFC 5041 section 7.2).
 */
public final class ReceiveRequest extends WorkRequest {

    private final Slices scatter = new Slices();

    /** Creates an empty request, to fill in with its setters (the tag is 0). */
    public ReceiveRequest() {
        // as the default constructor; declared for its javadoc
    }

    /**
     * Sets the application's tag, returned in this request's completion.
     *
     * @param tag any value; the engine only hands it back
     * @return this request
     */
    public ReceiveRequest tag(long tag) {
        setTag(tag);
        return this;
    }

    /**
     * Sets where the incoming bytes go, in order; replaces the previous list.
     *
     * @param slices up to {@link #MAX_SLICES} local slices with {@link Access#LOCAL_WRITE}; none
     *               for a Receive that takes only zero-length Sends
     * @return this request
     * @throws IllegalArgumentException if there are more than {@link #MAX_SLICES} slices
     * @throws NullPointerException if the array or a slice is null
     */
    public ReceiveRequest scatter(RegionSlice... slices) {
        scatter.set(slices);
        return this;
    }

    /**
     * The number of slices in the scatter list.
     *
     * @return 0 to {@link #MAX_SLICES}
     */
    public int sliceCount() {
        return scatter.count();
    }

    /**
     * One slice of the scatter list.
     *
     * @param index 0 to {@link #sliceCount()} - 1
     * @return the slice
     * @throws IndexOutOfBoundsException if there is no such slice
     */
    public RegionSlice slice(int index) {
        return scatter.get(index);
    }

    /**
     * The total length of the scatter list.
     *
     * @return the sum of the slices' lengths, in bytes
     */
    public long length() {
        return scatter.totalLength();
    }

    @Override
    public WorkOpcode opcode() {
        return WorkOpcode.RECEIVE;
    }
}
