package io.extsock.core.verbs;

/**
 * The pages of one pinned region: the address range {@link MemoryPinning} locked with mlock,
 * kept so that deregistration can unlock it. Released at most once.
 */
final class PinnedRange {

    private final long address;
    private final long length;
    private boolean released;  // guarded by MemoryPinning's lock

    PinnedRange(long address, long length) {
        this.address = address;
        this.length = length;
    }

    long address() {
        return address;
    }

    long length() {
        return length;
    }

    long end() {
        return address + length;
    }

    boolean released() {
        return released;
    }

    void markReleased() {
        released = true;
    }
}
