package io.extsock.testkit.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What the relay does to one direction of a connection: how it cuts the bytes into writes,
 * how long it waits before each, which octets it flips, and where it half-closes or resets.
 * Offsets count the direction's octets from 0. A plan is a builder: each call returns a new
 * plan, so a test can derive variants from a base.
 */
public final class FaultPlan {

    /** Flips octets: at an absolute offset, or {@code distance} octets after a pattern's start. */
    record Corruption(long offset, byte[] pattern, int occurrence, int distance, int xorMask) {

        boolean byPattern() {
            return pattern != null;
        }
    }

    private static final FaultPlan NONE = new FaultPlan(0, 0, 0L, Duration.ZERO, List.of(), -1, -1);

    final int minSegment;
    final int maxSegment;
    final long seed;
    final Duration delayPerSegment;
    final List<Corruption> corruptions;
    final long halfCloseAt;
    final long resetAt;

    private FaultPlan(int minSegment, int maxSegment, long seed, Duration delayPerSegment,
                      List<Corruption> corruptions, long halfCloseAt, long resetAt) {
        this.minSegment = minSegment;
        this.maxSegment = maxSegment;
        this.seed = seed;
        this.delayPerSegment = delayPerSegment;
        this.corruptions = List.copyOf(corruptions);
        this.halfCloseAt = halfCloseAt;
        this.resetAt = resetAt;
    }

    /** Relays every octet as it comes, untouched. */
    public static FaultPlan none() {
        return NONE;
    }

    /**
     * Cuts the bytes into writes of {@code min} to {@code max} octets (each its own TCP send,
     * Nagle off), sizes drawn from {@code seed}: 1 to 1 octet splits every header.
     */
    public FaultPlan segments(int min, int max, long seed) {
        if (min < 1 || max < min) {
            throw new IllegalArgumentException("segment sizes must satisfy 1 <= min <= max: " + min + ", " + max);
        }
        return new FaultPlan(min, max, seed, delayPerSegment, corruptions, halfCloseAt, resetAt);
    }

    /** Waits this long before each write. */
    public FaultPlan delayEachSegment(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        return new FaultPlan(minSegment, maxSegment, seed, delay, corruptions, halfCloseAt, resetAt);
    }

    /** XORs the octet at {@code offset} with {@code xorMask} (not 0). */
    public FaultPlan corruptAt(long offset, int xorMask) {
        checkMask(xorMask);
        if (offset < 0) {
            throw new IllegalArgumentException("offset must not be negative: " + offset);
        }
        return withCorruption(new Corruption(offset, null, 0, 0, xorMask));
    }

    /**
     * XORs the octet {@code distance} octets after the start of the {@code occurrence}-th (from
     * 1) appearance of {@code pattern}; a negative distance reaches back into the octets before
     * it, for example into a header. The relay holds nothing back, so an octet before the
     * pattern can be flipped only if it arrived in the same read as the pattern (a header
     * written with its payload does): otherwise the report lists the corruption as missed.
     */
    public FaultPlan corruptNear(byte[] pattern, int occurrence, int distance, int xorMask) {
        checkMask(xorMask);
        if (pattern.length == 0 || occurrence < 1) {
            throw new IllegalArgumentException("need a non-empty pattern and an occurrence from 1");
        }
        return withCorruption(new Corruption(-1, pattern.clone(), occurrence, distance, xorMask));
    }

    /** After {@code offset} octets, shuts this direction's output down (FIN) and relays no more of it. */
    public FaultPlan halfCloseAt(long offset) {
        return new FaultPlan(minSegment, maxSegment, seed, delayPerSegment, corruptions, offset, resetAt);
    }

    /** After {@code offset} octets, resets both connections (RST to each peer). */
    public FaultPlan resetAt(long offset) {
        return new FaultPlan(minSegment, maxSegment, seed, delayPerSegment, corruptions, halfCloseAt, offset);
    }

    private FaultPlan withCorruption(Corruption corruption) {
        List<Corruption> all = new ArrayList<>(corruptions);
        all.add(corruption);
        return new FaultPlan(minSegment, maxSegment, seed, delayPerSegment, all, halfCloseAt, resetAt);
    }

    private static void checkMask(int xorMask) {
        if ((xorMask & 0xFF) == 0) {
            throw new IllegalArgumentException("an XOR mask of 0 corrupts nothing");
        }
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("FaultPlan[");
        if (maxSegment > 0) {
            text.append("segments ").append(minSegment).append('-').append(maxSegment).append(' ');
        }
        if (!delayPerSegment.isZero()) {
            text.append("delay ").append(delayPerSegment.toMillis()).append(" ms ");
        }
        for (Corruption c : corruptions) {
            text.append(c.byPattern() ? "corrupt " + c.distance() + " from pattern " + Arrays.toString(c.pattern())
                    + " #" + c.occurrence() : "corrupt @" + c.offset()).append(' ');
        }
        if (halfCloseAt >= 0) {
            text.append("half-close @").append(halfCloseAt).append(' ');
        }
        if (resetAt >= 0) {
            text.append("reset @").append(resetAt).append(' ');
        }
        return text.toString().trim() + "]";
    }
}
