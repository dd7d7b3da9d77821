package io.extsock.core.stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;

/** Writes that carry their number, so that a reader can tell which one it got, and reading them back. */
final class NumberedWrites {

    private NumberedWrites() {
    }

    /** Write {@code i}: its number in its first bytes, then a pattern of it. */
    static byte[] write(int i, int size) {
        byte[] bytes = new byte[size];
        for (int j = 0; j < size; j++) {
            bytes[j] = (byte) (i * 31 + j);
        }
        bytes[0] = (byte) i;
        bytes[1] = (byte) (i >> 8);
        return bytes;
    }

    /** Fills {@code into} from {@code at} on; end of stream first fails the test. */
    static void readFully(IwarpStream stream, byte[] into, int at, int timeoutMillis) throws IOException {
        while (at < into.length) {
            int n = stream.read(into, at, into.length - at, timeoutMillis);
            assertTrue(n > 0, "end of stream too early");
            at += n;
        }
    }
}
