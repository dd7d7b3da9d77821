package io.extsock.verbs;

import java.util.Objects;

/**
 * An RDMA Write (RFC 5040 section 5.1): the gathered bytes land in the peer's memory at the
 * remote buffer, with no action by the peer's application. The remote buffer must grant
 * {@link Access#REMOTE_WRITE}.
 */
public final class WriteRequest extends WorkRequest {

    private final Slices gather = new Slices();
    private RemoteBuffer target;

    /** Creates an empty request, to fill in with its setters (the tag is 0). */
    public WriteRequest() {
        // as the default constructor; declared for its javadoc
    }

    /**
     * Sets the application's tag, returned in this request's completion.
     *
     * @param tag any value; the engine only hands it back
     * @return this request
     */
    public WriteRequest tag(long tag) {
        setTag(tag);
        return this;
    }

    /**
     * Sets the bytes to write, in order; replaces the previous list.
     *
     * @param slices up to {@link #MAX_SLICES} local slices
     * @return this request
     * @throws IllegalArgumentException if there are more than {@link #MAX_SLICES} slices
     * @throws NullPointerException if the array or a slice is null
     */
    public WriteRequest gather(RegionSlice... slices) {
        gather.set(slices);
        return this;
    }

    /**
     * Sets where the bytes go: from the window's start. The window must be at least as long as
     * the data ({@link IwarpConnection#post} checks); whether the peer allows it is the peer's
     * to check, after this side's completion (see {@link IwarpConnection#post}).
     *
     * @param target a window of the peer's memory that grants {@link Access#REMOTE_WRITE}
     * @return this request
     * @throws NullPointerException if {@code target} is null
     */
    public WriteRequest target(RemoteBuffer target) {
        this.target = Objects.requireNonNull(target, "target");
        return this;
    }

    /**
     * Where the bytes go.
     *
     * @return the peer's window, or null if not set yet
     */
    public RemoteBuffer target() {
        return target;
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

    @Override
    public WorkOpcode opcode() {
        return WorkOpcode.RDMA_WRITE;
    }
}
