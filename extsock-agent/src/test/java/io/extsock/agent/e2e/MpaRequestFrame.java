package io.extsock.agent.e2e;

import java.nio.charset.StandardCharsets;

/** Recognises, in what a client sent on a connection, one MPA Request frame and nothing else. */
final class MpaRequestFrame {

    /** The key that opens an MPA Request frame (RFC 5044, 7.1). */
    static final String KEY = "MPA ID Req Frame";
    /** An MPA frame's fixed part: key (16), flags and revision (2), private data length (2). */
    private static final int HEADER = 20;

    private MpaRequestFrame() {
    }

    /**
     * @param first the first octets the client sent (at least the frame's header)
     * @param total how many octets it sent in all
     * @return whether they are one MPA Request, its private data whole, and not one octet more:
     *         what a client that found no iWARP peer sends on the connection it gives up
     */
    static boolean isAlone(byte[] first, long total) {
        if (first.length < HEADER || !new String(first, 0, KEY.length(), StandardCharsets.ISO_8859_1).equals(KEY)) {
            return false;
        }
        int privateDataLength = (first[18] & 0xFF) << 8 | first[19] & 0xFF;
        return total == HEADER + privateDataLength;
    }
}
