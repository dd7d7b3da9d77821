package io.extsock.it.nio.programs;

/**
 * The bytes the programs send: a stream whose every byte is a function of its position and a
 * seed, with no short period, so that a lost, repeated, reordered or altered byte is seen where
 * it happens.
 */
public final class Payload {

    /** Message sizes of the echoes: 1 B to 256 KiB, small and large mixed. */
    public static final int[] SIZES = {1, 2, 3, 7, 64, 100, 1000, 1460, 4096, 8191, 16384, 65535, 65536, 100_000,
            131_072, 262_144, 1, 262_144, 5, 200_000, 17, 262_143, 31_337, 262_144};

    private Payload() {
    }

    public static byte at(long seed, long position) {
        long z = (position + seed) * 0x9E3779B97F4A7C15L;
        z ^= z >>> 29;
        z *= 0xBF58476D1CE4E5B9L;
        return (byte) (z >>> 40);
    }

    public static byte[] bytes(long seed, long from, int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = at(seed, from + i);
        }
        return bytes;
    }

    /** The first position where the bytes differ from the stream's, or -1. */
    public static long firstDifference(long seed, long from, byte[] bytes, int offset, int length) {
        for (int i = 0; i < length; i++) {
            if (bytes[offset + i] != at(seed, from + i)) {
                return from + i;
            }
        }
        return -1;
    }

    public static long total(int[] sizes) {
        long total = 0;
        for (int size : sizes) {
            total += size;
        }
        return total;
    }
}
