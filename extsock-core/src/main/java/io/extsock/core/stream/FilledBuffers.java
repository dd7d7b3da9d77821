package io.extsock.core.stream;

import java.nio.ByteBuffer;

/**
 * The receive buffers that hold stream octets not yet read, in arrival order (a ring of their
 * indexes), each with where reading stands in it (its limit marks the data's end). Guarded by
 * the {@link StreamInput}'s monitor.
 */
final class FilledBuffers {

    /** The longest payload {@link #appendToLast} copies: small writes, not bulk ones. */
    static final int MAX_APPENDED = 8 * 1024;

    private final int[] ring;
    private int head;
    private int count;
    /** Each filled buffer's unread octets, by buffer index; null for a buffer not filled. */
    private final ByteBuffer[] data;

    /** @param maxBuffers the most receive buffers the stream can have */
    FilledBuffers(int maxBuffers) {
        this.ring = new int[maxBuffers];
        this.data = new ByteBuffer[maxBuffers];
    }

    boolean isEmpty() {
        return count == 0;
    }

    /** Buffer {@code index}, {@code message}, holds a stream message of {@code length} octets: its payload is read last. */
    void add(int index, ByteBuffer message, int length) {
        data[index] = message.limit(length).position(StreamHeader.LENGTH);
        ring[(head + count) % ring.length] = index;
        count++;
    }

    /**
     * Copies a small message's payload behind the unread octets of the last filled buffer, if
     * they fit, so that its own buffer can go back to the peer at once.
     *
     * <p>Why: each Send takes a whole receive buffer, so without this a few small writes that
     * the peer's application has not read yet use up the window and the next write blocks, where
     * TCP takes hundreds of kilobytes unread; two programs that each write before they read (a
     * pipelining protocol) would then both block for good. Appended, small messages fill
     * buffers by octets, as TCP's window does. Large ones are not copied (they fill buffers well
     * on their own, and a bulk stream must not pay a second copy).
     *
     * @return whether it was appended (the caller posts the message's buffer again)
     */
    boolean appendToLast(ByteBuffer message, int payload) {
        if (count == 0 || payload > MAX_APPENDED) {
            return false;
        }
        ByteBuffer last = data[ring[(head + count - 1) % ring.length]];
        int end = last.limit();
        if (last.capacity() - end < payload) {
            return false;
        }
        last.limit(end + payload);
        last.put(end, message, StreamHeader.LENGTH, payload);
        return true;
    }

    /** The index of the buffer read next; there is one. */
    int headIndex() {
        return ring[head];
    }

    /**
     * Copies up to {@code len} unread octets of the head buffer into {@code b} at {@code off}.
     *
     * @return the octets copied
     */
    int readHead(byte[] b, int off, int len) {
        ByteBuffer unread = data[ring[head]];
        int copied = Math.min(len, unread.remaining());
        unread.get(b, off, copied);
        return copied;
    }

    /** Whether the head buffer is read out: then it leaves the ring (its index was {@link #headIndex}). */
    boolean removeHeadIfReadOut() {
        if (data[ring[head]].hasRemaining()) {
            return false;
        }
        data[ring[head]] = null;
        head = (head + 1) % ring.length;
        count--;
        return true;
    }

    /** Octets not yet read. */
    int octets() {
        int total = 0;
        for (int i = 0; i < count; i++) {
            total += data[ring[(head + i) % ring.length]].remaining();
        }
        return total;
    }

    /** Drops every unread octet: the indexes of the buffers that held them. */
    int[] removeAll() {
        int[] removed = new int[count];
        for (int i = 0; i < count; i++) {
            removed[i] = ring[(head + i) % ring.length];
            data[removed[i]] = null;
        }
        count = 0;
        return removed;
    }
}
