package io.extsock.core.verbs;

import java.util.Objects;
import java.util.Random;

/**
 * Draws candidate STags: 32 random bits each, from a generator that should be a {@link
 * java.security.SecureRandom} seeded once (it seeds itself on first use). RFC 5042 section 5
 * asks that STags be hard to guess, so that a peer (or anyone who can inject into the stream,
 * section 6) cannot reach a region it was never given: a predictable generator would defeat
 * that however wide the STag.
 *
 * <p>Bits are drawn {@value #BUFFERED_BYTES} bytes at a time: one call into the generator
 * (which may lock and mix its state) serves {@value #BUFFERED_BYTES} / 4 registrations, so
 * registration stays cheap. Not thread-safe: its registry calls it under its lock.
 */
final class StagSource {

    static final int BUFFERED_BYTES = 64;

    private final Random random;
    private final byte[] buffered = new byte[BUFFERED_BYTES];
    private int next = BUFFERED_BYTES;

    StagSource(Random random) {
        this.random = Objects.requireNonNull(random, "random");
    }

    /** The next 32 random bits; may be {@link Stag#RESERVED} or taken: the registry checks. */
    int nextCandidate() {
        if (next == BUFFERED_BYTES) {
            random.nextBytes(buffered);
            next = 0;
        }
        int value = (buffered[next] & 0xFF) << 24 | (buffered[next + 1] & 0xFF) << 16
                | (buffered[next + 2] & 0xFF) << 8 | buffered[next + 3] & 0xFF;
        buffered[next] = buffered[next + 1] = buffered[next + 2] = buffered[next + 3] = 0;  // used bits go
        next += 4;
        return value;
    }
}
