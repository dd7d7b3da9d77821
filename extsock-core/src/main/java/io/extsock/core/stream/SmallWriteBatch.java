package io.extsock.core.stream;

/**
 * Small writes made while half the peer's window or more is spent, copied into one buffer that
 * goes out as a single DATA Send when credits come back (or when it is full), as TCP's send
 * buffer gathers them into segments. Without it each small write would take a credit, a whole
 * receive buffer of the peer's, and wait for it: 4 KiB writes would move a small fraction of
 * plain TCP's bandwidth, a few of them in flight at a time.
 *
 * <p>One buffer, made on first use and kept (as TCP keeps its send buffer): while its Send is on
 * its way (posted, not yet handed to TCP), nothing is added to it, and small writes wait for
 * credits as large ones do. Guarded by the {@link StreamOutput}'s monitor.
 */
final class SmallWriteBatch {

    private final int capacity;
    private byte[] octets;
    private int length;
    /** The DATA Send that carries the buffer, by number (counted from 1); 0 when none is on its way. */
    private long carriedBy;

    /** @param capacity the most octets one batch holds: at most a DATA Send's payload */
    SmallWriteBatch(int capacity) {
        this.capacity = capacity;
    }

    boolean isEmpty() {
        return length == 0;
    }

    /** Octets waiting to be sent. */
    int length() {
        return length;
    }

    /** How many more octets, up to {@code most}, would fit now (none while the buffer's Send is on its way). */
    int room(int most) {
        return carriedBy == 0 ? Math.min(most, capacity - length) : 0;
    }

    /** Whether {@code len} more octets would fit now (none while the buffer's Send is on its way). */
    boolean hasRoomFor(int len) {
        return carriedBy == 0 && capacity - length >= len;
    }

    /** Appends octets {@code [off, off + len)} of {@code b}; the caller checked {@link #hasRoomFor}. */
    void add(byte[] b, int off, int len) {
        if (octets == null) {
            octets = new byte[capacity];
        }
        System.arraycopy(b, off, octets, length, len);
        length += len;
    }

    /** The buffer, whose first {@link #length()} octets are the batch. */
    byte[] octets() {
        return octets;
    }

    /** The batch was posted as DATA Send {@code sendNumber}: empty, and on its way until that Send leaves. */
    void posted(long sendNumber) {
        length = 0;
        carriedBy = sendNumber;
    }

    /** DATA Sends up to number {@code completed} have left: the buffer is free once its own has. */
    void sendsCompletedThrough(long completed) {
        if (carriedBy != 0 && completed >= carriedBy) {
            carriedBy = 0;
        }
    }
}
