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

    public WriteRequest tag(long tag) {
        setTag(tag);
        return this;
    }

    /** The bytes to write, in order. */
    public WriteRequest gather(RegionSlice... slices) {
        gather.set(slices);
        return this;
    }

    /** Where the bytes go: the window's start; it must be at least as long as the data. */
    public WriteRequest target(RemoteBuffer target) {
        this.target = Objects.requireNonNull(target, "target");
        return this;
    }

    public RemoteBuffer target() {
        return target;
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

    @Override
    public WorkOpcode opcode() {
        return WorkOpcode.RDMA_WRITE;
    }
}
