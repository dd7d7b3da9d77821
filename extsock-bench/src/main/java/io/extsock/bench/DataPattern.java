package io.extsock.bench;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Test data that catches a broken transfer: pattern bytes that differ with their position, and
 * a sequence-number stamp on the first and last 8 bytes of each message, so that a message
 * that did not arrive whole, arrived twice or landed in the wrong place fails the check.
 */
final class DataPattern {

    /** Bytes of one stamp; a stamped message holds two. */
    static final int STAMP_BYTES = Long.BYTES;

    private DataPattern() {
    }

    /** The pattern byte at a position (Fibonacci hashing: neighbours and strides all differ). */
    static byte at(long position) {
        return (byte) ((position * 0x9E3779B97F4A7C15L) >>> 56);
    }

    /** Fills {@code length} bytes at {@code offset} with the pattern from {@code firstPosition} on. */
    static void fill(ByteBuffer buffer, int offset, int length, long firstPosition) {
        for (int i = 0; i < length; i++) {
            buffer.put(offset + i, at(firstPosition + i));
        }
    }

    /** Fails unless {@code length} bytes at {@code offset} hold the pattern from {@code firstPosition} on. */
    static void check(ByteBuffer buffer, int offset, int length, long firstPosition, String what)
            throws IOException {
        for (int i = 0; i < length; i++) {
            if (buffer.get(offset + i) != at(firstPosition + i)) {
                throw new IOException(what + ": wrong byte at " + i + " of " + length);
            }
        }
    }

    /** Stamps the message at {@code offset}: its first and last 8 bytes carry {@code sequence}. */
    static void stamp(ByteBuffer buffer, int offset, int length, long sequence) {
        buffer.putLong(offset, sequence);
        buffer.putLong(offset + length - STAMP_BYTES, sequence);
    }

    /** Fails unless the message at {@code offset} carries {@code sequence} at both ends. */
    static void checkStamps(ByteBuffer buffer, int offset, int length, long sequence, String what)
            throws IOException {
        long first = buffer.getLong(offset);
        long last = buffer.getLong(offset + length - STAMP_BYTES);
        if (first != sequence || last != sequence) {
            throw new IOException(what + ": expected message " + Long.toHexString(sequence) + ", found "
                    + Long.toHexString(first) + " at its start and " + Long.toHexString(last) + " at its end");
        }
    }

    /**
     * Fails unless the stamped message at {@code offset} is whole: both stamps, and the pattern
     * between them (as {@link #fill} put it at the message's positions).
     */
    static void checkMessage(ByteBuffer buffer, int offset, int length, long sequence, String what)
            throws IOException {
        checkStamps(buffer, offset, length, sequence, what);
        check(buffer, offset + STAMP_BYTES, length - 2 * STAMP_BYTES, STAMP_BYTES, what);
    }

    /** A stamp no other round uses: the round in the high half, the message in the low. */
    static long sequence(int round, long message) {
        return (long) round << 32 | message;
    }
}
