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

    /** Creates an empty request, to fill in with its setters (the tag is 0). */
    public SendRequest() {
        // as the default constructor; declared for its javadoc
    }

    /**
     * Sets the application's tag, returned in this request's completion.
     *
     * @param tag any value; the engine only hands it back
     * @return this request
     */
    public SendRequest tag(long tag) {
        setTag(tag);
        return this;
    }

    /**
     * Sets the bytes to send, in order; replaces the previous list.
     *
     * @param slices up to {@link #MAX_SLICES} local slices; none for a zero-length Send
     * @return this request
     * @throws IllegalArgumentException if there are more than {@link #MAX_SLICES} slices
     * @throws NullPointerException if the array or a slice is null
     */
    public SendRequest gather(RegionSlice... slices) {
        gather.set(slices);
        return this;
    }

    /**
     * Sets or clears Solicited Event: the peer's Receive completion is marked solicited.
     *
     * @param solicited true to send with Solicited Event
     * @return this request
     */
    public SendRequest solicited(boolean solicited) {
        this.solicited = solicited;
        return this;
    }

    /**
     * Sends with Invalidate: the peer invalidates its region with this STag on arrival.
     *
     * @param stag the STag of a region of the peer's
     * @return this request
     */
    public SendRequest invalidate(int stag) {
        this.invalidate = true;
        this.invalidateStag = stag;
        return this;
    }

    /**
     * Sends without Invalidate (the default).
     *
     * @return this request
     */
    public SendRequest noInvalidate() {
        this.invalidate = false;
        this.invalidateStag = 0;
        return this;
    }

    /**
     * The number of slices in the gather list.
     *
     * @return 0 to {@link #MAX_SLICES}
     */
    public int sliceCount() {
        return gather.count();
    }

    /**
     * One slice of the gather list.
     *
     * @param index 0 to {@link #sliceCount()} - 1
     * @return the slice
     * @throws IndexOutOfBoundsException if there is no such slice
     */
    public RegionSlice slice(int index) {
        return gather.get(index);
    }

    /**
     * The total length of the gather list.
     *
     * @return the sum of the slices' lengths, in bytes
     */
    public long length() {
        return gather.totalLength();
    }

    /**
     * Whether the Send carries Solicited Event.
     *
     * @return true if set with {@link #solicited(boolean)}
     */
    public boolean isSolicited() {
        return solicited;
    }

    /**
     * Whether the Send carries Invalidate.
     *
     * @return true if set with {@link #invalidate(int)}
     */
    public boolean isInvalidate() {
        return invalidate;
    }

    /**
     * The peer's STag to invalidate.
     *
     * @return the STag given to {@link #invalidate(int)}; 0 without Invalidate
     */
    public int invalidateStag() {
        return invalidateStag;
    }

    @Override
    public WorkOpcode opcode() {
        return WorkOpcode.SEND;
    }
}
