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

    public ReadRequest tag(long tag) {
        setTag(tag);
        return this;
    }

    /** What to read: the whole window (its length is the read's size unless the sink is shorter). */
    public ReadRequest source(RemoteBuffer source) {
        this.source = Objects.requireNonNull(source, "source");
        return this;
    }

    /** Where the bytes land; its length is the read's size. */
    public ReadRequest sink(RegionSlice sink) {
        this.sink = Objects.requireNonNull(sink, "sink");
        return this;
    }

    public RemoteBuffer source() {
        return source;
    }

    public RegionSlice sink() {
        return sink;
    }

    @Override
    public WorkOpcode opcode() {
        return WorkOpcode.RDMA_READ;
    }
}
