package io.extsock.core.verbs;

/**
 * The STags this engine issues. RFC 5040 section 2.1 defines an STag only as a 32-bit name for
 * a registered buffer. We draw all 32 bits at random for each registration ({@link
 * StagSource}), with no index or counter in them: RFC 5042 section 5 (and the attack on
 * guessed STags in its section 6) asks that a peer cannot predict the STag of a region it was
 * not given, and a 24-bit index plus an 8-bit key leaves only the key to guess, once the peer
 * has seen any one STag of the connection.
 */
public final class Stag {

    /**
     * Never issued: the zero-length ready-to-receive RDMA Write and Read of RFC 6581 section 7
     * carry STag 0, which must name no region, and the engine's own messages use 0 for "no
     * STag" (a Send's Invalidate STag field, the RTR's sink and source).
     */
    public static final int RESERVED = 0;

    private Stag() {
    }

    /** The usual spelling in messages: 0x0001a2c7. */
    public static String toString(int stag) {
        return String.format("0x%08x", stag);
    }
}
