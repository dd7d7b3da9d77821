package io.extsock.internal.nio;

import java.nio.ByteBuffer;

/**
 * After a responder's fallback to plain TCP: the octets the engine read from the plain peer
 * before it knew, which the channel's reads return first. Its selectors see them ready
 * ({@link ChannelEvents#prefixPending}), as no descriptor shows them.
 */
final class FallbackPrefix {

    private final ChannelEvents events;
    /** What is left of them; null when none is. */
    private volatile ByteBuffer octets;

    FallbackPrefix(ChannelEvents events) {
        this.events = events;
    }

    void set(byte[] received) {
        if (received.length > 0) {
            octets = ByteBuffer.wrap(received);
            events.prefixPending(true);
        }
    }

    /** Whether some are left to read (a quick look before {@link #read}). */
    boolean pending() {
        return octets != null;
    }

    /**
     * Reads what is left of them into the buffers; one reader at a time, as a channel's reads are.
     *
     * @return the octets read; -1 if none was left (the channel reads its connection)
     */
    long read(ByteBuffer[] dsts, int offset, int length) {
        ByteBuffer left = octets;
        if (left == null) {
            return -1;
        }
        long total = 0;
        for (int i = offset; i < offset + length && left.hasRemaining(); i++) {
            int n = Math.min(dsts[i].remaining(), left.remaining());
            dsts[i].put(dsts[i].position(), left, left.position(), n);
            dsts[i].position(dsts[i].position() + n);
            left.position(left.position() + n);
            total += n;
        }
        if (!left.hasRemaining()) {
            octets = null;
            events.prefixPending(false);
        }
        return total;
    }
}
