package io.extsock.core.stream;

/**
 * One stream write on its way through {@link StreamOutput#write}: what is left of the
 * application's array, the chunk taken next, and what the write has met so far. One object per
 * stream, reused under its writing lock, so that a write allocates nothing.
 */
final class WriteProgress {

    /** What a write does next, as {@link StreamOutput} decides under its monitor. */
    enum Step {
        /** The rest goes into the small-write batch; the write is done. */
        BATCHED,
        /** Earlier writes' bytes wait in the batch: they go first. */
        BATCH_FIRST,
        /** A credit and a send slot were taken: the next chunk goes as a DATA Send. */
        SEND_CHUNK,
        /** The peer's window is spent: wait for its credits. */
        AWAIT_CREDITS,
        /** Enough DATA Sends are on their way: wait for TCP to take some. */
        AWAIT_SEND_SLOT,
        /** The peer ended the connection and the write ends quietly, as TCP's would. */
        ENDED
    }

    byte[] bytes;
    int off;
    int len;
    /** Whether the write is small enough to wait in the batch while credits are merely low. */
    boolean small;
    /** Octets of the next DATA Send, and whether the transmit may wait for a further one. */
    int chunk;
    boolean moreFollows;
    /** The next chunk's header flags: {@link StreamHeader#WAITED} once it waited for credits. */
    int chunkFlags;
    /**
     * Whether the peer ending now leaves bytes of this write unread: once the peer's window held
     * it up (its application then had our bytes unread), or once part of it went out (the rest
     * cannot follow).
     */
    boolean leftUnreadIfPeerEnds;
    /** Whether a Send went out of the application's array, which must then leave before we return. */
    boolean fromArray;
    private boolean looked;

    WriteProgress start(byte[] bytes, int off, int len, boolean small) {
        this.bytes = bytes;
        this.off = off;
        this.len = len;
        this.small = small;
        this.leftUnreadIfPeerEnds = false;
        this.fromArray = false;
        this.looked = false;
        return this;
    }

    /** Whether this is the write's first look at the stream (where a shut or ended stream refuses it). */
    boolean firstLook() {
        boolean first = !looked;
        looked = true;
        return first;
    }

    /** A new chunk's turn: it has not waited yet. */
    void nextChunk() {
        chunkFlags = 0;
    }

    /** The peer's window held this chunk up: the peer may widen it. */
    void waitedForCredits() {
        chunkFlags = StreamHeader.WAITED;
        leftUnreadIfPeerEnds = true;
    }

    /** The chunk went out of the application's array. */
    void chunkSent() {
        fromArray = true;
        off += chunk;
        len -= chunk;
        // Only if more follows: a write whose one chunk was flushed unsent because the peer's
        // FIN came first is a write after the peer's orderly close, which TCP accepts.
        leftUnreadIfPeerEnds |= len > 0;
    }

    /** The write returns: the application's array is not held past it. */
    void end() {
        bytes = null;
    }
}
