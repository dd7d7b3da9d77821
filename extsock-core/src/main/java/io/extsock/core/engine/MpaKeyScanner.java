package io.extsock.core.engine;

import io.extsock.core.mpa.MpaFrameType;
import java.nio.charset.StandardCharsets;

/**
 * Finds where the peer's MPA frame starts in what arrives after a socket switched to
 * IWARP_MODE. The peer may have written stream bytes before it switched; they arrive ahead of
 * its MPA frame and must stay readable on the socket's stream. So the bytes before the first
 * "MPA ID Req Frame" / "MPA ID Rep Frame" key are stream bytes, the frame starts at the key.
 *
 * <p>A limit: stream data that itself contains the 16-octet key would be taken for the frame.
 */
final class MpaKeyScanner {

    /** The part both keys share: "MPA ID Re", then 'q' or 'p', then " Frame". */
    private static final byte[] REQUEST = MpaFrameType.REQUEST.key().getBytes(StandardCharsets.US_ASCII);
    private static final byte[] REPLY = MpaFrameType.REPLY.key().getBytes(StandardCharsets.US_ASCII);

    private MpaKeyScanner() {
    }

    /** Where a key was found, and which. */
    record Found(int index, MpaFrameType type) {
    }

    /**
     * The first complete key in {@code data[0, length)}, or null if there is none yet (a key
     * cut off at the end may complete with more bytes; see {@link #safePrefix}).
     */
    static Found find(byte[] data, int length) {
        for (int i = 0; i + REQUEST.length <= length; i++) {
            if (matches(data, i, REQUEST)) {
                return new Found(i, MpaFrameType.REQUEST);
            }
            if (matches(data, i, REPLY)) {
                return new Found(i, MpaFrameType.REPLY);
            }
        }
        return null;
    }

    /**
     * How many leading bytes of {@code data[0, length)} cannot be the start of a key, even
     * with more bytes to come: those are certainly stream bytes.
     */
    static int safePrefix(byte[] data, int length) {
        for (int i = Math.max(0, length - REQUEST.length + 1); i < length; i++) {
            if (couldStartKey(data, i, length)) {
                return i;
            }
        }
        return length;
    }

    private static boolean couldStartKey(byte[] data, int from, int length) {
        for (int j = 0; from + j < length; j++) {
            byte b = data[from + j];
            if (b != REQUEST[j] && b != REPLY[j]) {
                return false;
            }
        }
        return true;
    }

    private static boolean matches(byte[] data, int from, byte[] key) {
        for (int j = 0; j < key.length; j++) {
            if (data[from + j] != key[j]) {
                return false;
            }
        }
        return true;
    }
}
