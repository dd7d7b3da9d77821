package io.extsock.verbs;

import java.util.Objects;

/**
 * An RDMA Read (RFC 5040 section 5.2): bytes of the peer's memory land in a local region,
 * with no action by the peer's application. The remote buffer must grant {@link
 * Access#REMOTE_READ}; the local sink needs {@link Access#LOCAL_WRITE}. At most the
 * negotiated ORD Reads are outstanding at once; further ones wait their turn.
 */
public final class ReadRequest extends WorkRequest {

    private RemoteBuffer source;
    private RegionSlice sink;

    /** Creates an empty request, to fill in with its setters (the tag is 0). */
    public ReadRequest() {
        // as the default constructor; declared for its javadoc
    }

    /**
     * Sets the application's tag, returned in this request's completion.
     *
     * @param tag any value; the engine only hands it back
     * @return this request
     */
    public ReadRequest tag(long tag) {
        setTag(tag);
        return this;
    }

    /**
     * Sets what to read: the whole window, unless the sink is shorter (then its first bytes).
     *
     * @param source a window of the peer's memory that grants {@link Access#REMOTE_READ}
     * @return this request
     * @throws NullPointerException if {@code source} is null
     */
    public ReadRequest source(RemoteBuffer source) {
        this.source = Objects.requireNonNull(source, "source");
        return this;
    }

    /**
     * Sets where the bytes land; its length is the read's size.
     *
     * @param sink a local slice with {@link Access#LOCAL_WRITE}, no longer than the source
     * @return this request
     * @throws NullPointerException if {@code sink} is null
     */
    public ReadRequest sink(RegionSlice sink) {
        this.sink = Objects.requireNonNull(sink, "sink");
        return this;
    }

    /**
     * What to read.
     *
     * @return the peer's window, or null if not set yet
     */
    public RemoteBuffer source() {
        return source;
    }

    /**
     * Where the bytes land.
     *
     * @return the local slice, or null if not set yet
     */
    public RegionSlice sink() {
        return sink;
    }

    @Override
    public WorkOpcode opcode() {
        return WorkOpcode.RDMA_READ;
    }
}
