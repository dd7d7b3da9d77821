package io.extsock.core.verbs;

import java.security.SecureRandom;
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

    private Random random;  // null until the first draw of a secure() source
    private final byte[] buffered = new byte[BUFFERED_BYTES];
    private int next = BUFFERED_BYTES;

    /** A source drawing from {@code random} (tests: a seeded one). */
    StagSource(Random random) {
        this.random = Objects.requireNonNull(random, "random");
    }

    private StagSource() {
    }

    /**
     * A source drawing from the JVM's one {@link SecureRandom} for STags, made at the first draw
     * of any connection: setting up the JDK's security providers takes milliseconds, which a
     * connection that never registers memory (one used through its stream alone) never pays,
     * nor the first switch of a JVM.
     */
    static StagSource secure() {
        return new StagSource();
    }

    /** The next 32 random bits; may be {@link Stag#RESERVED} or taken: the registry checks. */
    int nextCandidate() {
        if (next == BUFFERED_BYTES) {
            if (random == null) {
                random = SharedBits.GENERATOR;
            }
            random.nextBytes(buffered);
            next = 0;
        }
        int value = (buffered[next] & 0xFF) << 24 | (buffered[next + 1] & 0xFF) << 16
                | (buffered[next + 2] & 0xFF) << 8 | buffered[next + 3] & 0xFF;
        buffered[next] = buffered[next + 1] = buffered[next + 2] = buffered[next + 3] = 0;  // used bits go
        next += 4;
        return value;
    }

    /**
     * The generator of every connection's STags: seeded once (from the operating system, on first
     * use) rather than per connection, as a thousand connections would seed a thousand times.
     * Thread-safe; each source draws from it in bulk. A class of its own, so that it is made when
     * first drawn from, not when the first registry is.
     */
    private static final class SharedBits {
        static final SecureRandom GENERATOR = new SecureRandom();
    }
}
