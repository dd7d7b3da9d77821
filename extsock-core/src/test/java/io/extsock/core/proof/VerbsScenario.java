package io.extsock.core.proof;

/**
 * What {@link TwoProcessVerbs} (the test JVM, MPA initiator) and {@link VerbsPeerProcess} (a
 * child JVM, MPA responder) do on one IWARP_MODE connection between them. Each scenario has its
 * own connection: the error paths end theirs.
 */
enum VerbsScenario {
    /** The socket's streams across processes: an echo. */
    STREAM_ECHO(false),
    /** Sends both ways: plain, with Solicited Event, zero-length, with Invalidate, with both. */
    SEND_RECEIVE(true),
    /** RDMA Writes (gathered, zero-length, at the last byte) that the peer checks. */
    RDMA_WRITE(true),
    /** RDMA Reads: one large, sixteen outstanding at once, one zero-length. */
    RDMA_READ(true),
    READ_INVALID_STAG(true),
    READ_OUT_OF_BOUNDS(true),
    READ_WITHOUT_RIGHT(true),
    READ_DEREGISTERED(true),
    READ_INVALIDATED(true),
    WRITE_INVALID_STAG(true),
    WRITE_OUT_OF_BOUNDS(true),
    WRITE_WITHOUT_RIGHT(true),
    WRITE_DEREGISTERED(true),
    WRITE_INVALIDATED(true),
    /** The test JVM Sends; the child has no Receive posted. */
    SEND_NO_RECEIVE(false),
    /** The test JVM Sends more than the child's Receive holds. */
    SEND_TOO_LONG_TO_PEER(false),
    /** The child Sends more than the test JVM's Receive holds. */
    SEND_TOO_LONG_FROM_PEER(false),
    /** The child closes its socket while the test JVM has Receives posted. */
    PEER_CLOSES(false);

    /** Seed of the data the two sides check each other with. */
    static final long SEED = 0x5EED_2026L;
    /** Size of the child's region in the error scenarios. */
    static final int REGION = 4096;
    /** Bytes the test JVM writes into the child's target region in RDMA_WRITE, and the region. */
    static final int WRITE_TARGET = 256 * 1024;
    /** Size of the child's source region in RDMA_READ. */
    static final int READ_SOURCE = 300_000;

    /**
     * SO_RCVBUF of every socket on the captured port (at most net.core.rmem_max, 4 MiB here): so
     * large that no burst of these scenarios fills the receiver's TCP window. A full window or a
     * zero window is plain TCP flow control, not an iWARP fault: the wire judge forgives the
     * expert warnings Wireshark's TCP dissector raises for it, but a capture without them is
     * simpler to read.
     */
    static final int RECEIVE_BUFFER = 4 << 20;

    /** The child's first message on the connection is a Send with its region's 16-byte descriptor. */
    final boolean peerSendsDescriptor;

    VerbsScenario(boolean peerSendsDescriptor) {
        this.peerSendsDescriptor = peerSendsDescriptor;
    }

    boolean isRead() {
        return name().startsWith("READ_");
    }

    boolean isWrite() {
        return name().startsWith("WRITE_");
    }
}
