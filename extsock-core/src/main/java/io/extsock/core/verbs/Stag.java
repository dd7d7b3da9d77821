package io.extsock.core.verbs;

/**
 * The layout of the STags this engine issues. RFC 5040 section 2.1 defines an STag only as a
 * 32-bit name for a registered buffer; like Linux siw and the RDMA verbs, we split it into a
 * 24-bit index into the connection's region table and an 8-bit key chosen at random at each
 * registration. The key is what RFC 5042 section 5 asks of an STag: a stale STag (its region
 * deregistered, the index reused) or a guessed one names nothing, because its key does not
 * match.
 *
 * <pre>
 *   31                              8 7          0
 *  +---------------------------------+------------+
 *  |            index (24)           |  key (8)   |
 *  +---------------------------------+------------+
 * </pre>
 */
public final class Stag {

    /** Bits of the key, the low octet (the "key" of the verbs' lkey/rkey). */
    public static final int KEY_BITS = 8;

    /** The largest index: the table holds at most 2^24 - 1 regions (index 0 is never issued). */
    public static final int MAX_INDEX = 0x00FF_FFFF;

    /**
     * Index 0 is never issued, so STag 0 is never issued: the zero-length ready-to-receive
     * RDMA Write and Read of RFC 6581 section 7 carry STag 0, which must name no region.
     */
    public static final int FIRST_INDEX = 1;

    private static final int KEY_MASK = 0xFF;

    private Stag() {
    }

    /** The STag with this index and key. */
    public static int of(int index, int key) {
        if (index < 0 || index > MAX_INDEX) {
            throw new IllegalArgumentException("index out of range: " + index);
        }
        return index << KEY_BITS | key & KEY_MASK;
    }

    /** The table index of an STag. */
    public static int index(int stag) {
        return stag >>> KEY_BITS;
    }

    /** The key of an STag. */
    public static int key(int stag) {
        return stag & KEY_MASK;
    }

    /** The usual spelling in messages: 0x0001a2c7. */
    public static String toString(int stag) {
        return String.format("0x%08x", stag);
    }
}
