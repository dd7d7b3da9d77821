package io.extsock.examples.rping;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * rping's ping data: {@code "rdma-ping-N: "} then letters from {@code 'A'} to {@code 'z'},
 * each ping starting one letter further, ending in a NUL; printed as a C string.
 */
final class RpingData {

    private static final int FIRST = 'A';
    private static final int LAST = 'z';

    private int start = FIRST;

    /** Fills {@code size} bytes of {@code buffer} (from 0) with ping number {@code ping}'s text. */
    void fill(ByteBuffer buffer, int size, int ping) {
        byte[] prefix = ("rdma-ping-" + ping + ": ").getBytes(StandardCharsets.US_ASCII);
        int at = 0;
        for (; at < Math.min(prefix.length, size - 1); at++) {
            buffer.put(at, prefix[at]);
        }
        for (int c = start; at < size; at++) {
            buffer.put(at, (byte) c);
            c = c == LAST ? FIRST : c + 1;
        }
        start = start == LAST ? FIRST : start + 1;
        buffer.put(size - 1, (byte) 0);
    }

    /** The bytes of {@code buffer} from 0 up to the first NUL (or {@code size}). */
    static int stringLength(ByteBuffer buffer, int size) {
        for (int i = 0; i < size; i++) {
            if (buffer.get(i) == 0) {
                return i;
            }
        }
        return size;
    }

    /** {@code buffer}'s C string, as rping prints it. */
    static String text(ByteBuffer buffer, int size) {
        byte[] bytes = new byte[stringLength(buffer, size)];
        buffer.get(0, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}
