package io.extsock.core.fuzz;

import io.extsock.core.Tier;
import io.extsock.core.terminate.ProtocolViolationException;
import java.util.HexFormat;
import java.util.SplittableRandom;

/**
 * The seeded fuzz driver shared by the {@code *FuzzTest} classes: each input comes from its own
 * {@link SplittableRandom}, seeded from the run's seed and the input's index, so that a failure
 * names the seed and index that reproduce it alone (and the input's octets in hex, for the
 * regression test it becomes).
 *
 * <p>The rule every target is held to: hostile octets end in a {@link ProtocolViolationException}
 * that names a Terminate cause, or in the documented exception of the API ({@link Target}
 * says which), never in anything else. A hang shows as a test that does not end; targets check
 * progress themselves (a call that consumes nothing and reports nothing is a failure).
 *
 * <p>Sizes: {@link #inputs(int)} is the default suite's count; the stress tier
 * ({@code -Dextsock.tier=stress}) runs {@value #STRESS_FACTOR} times as many, over a million inputs
 * across every surface, and the long runs ({@code -Dextsock.long=true}) 100 times as many.
 * {@code -Dextsock.fuzz.seed=N} changes the seed (default fixed, so that the default suite is
 * deterministic).
 *
 * <p>Every fuzz class carries a class-level {@code @Timeout}: a hang fails the run instead of
 * stalling it.
 */
public final class Fuzz {

    /** The seed every surface starts from unless {@code -Dextsock.fuzz.seed} says otherwise. */
    public static final long DEFAULT_SEED = 0x5EED_F022_1CE5L;

    private Fuzz() {
    }

    /** The run's seed. */
    public static long seed() {
        return Long.getLong("extsock.fuzz.seed", DEFAULT_SEED);
    }

    /** How many times the default suite's inputs the stress tier runs. */
    public static final int STRESS_FACTOR = 4;

    /** Inputs for a surface: {@code normal} in the default suite, more in the stress tier and the long runs. */
    public static int inputs(int normal) {
        return Tier.current().pick(normal, normal * STRESS_FACTOR, normal * 100);
    }

    /** Makes one input from its random source. */
    @FunctionalInterface
    public interface Generator {
        byte[] generate(SplittableRandom random);
    }

    /** Feeds one input to the code under test; {@code random} drives splits and choices. */
    @FunctionalInterface
    public interface Target {
        void accept(byte[] input, SplittableRandom random) throws Exception;
    }

    /**
     * Runs {@code count} inputs. Each may end normally or in a {@link ProtocolViolationException}
     * (whose Terminate cause must be set) or an exception of a type in {@code documented};
     * anything else fails the test with what reproduces it.
     *
     * @return how many inputs ended in a ProtocolViolationException (for the report)
     */
    @SafeVarargs
    public static Stats run(String surface, int count, Generator generator, Target target,
            Class<? extends Exception>... documented) {
        long seed = seed() ^ surface.hashCode() * 0x9E37_79B9_7F4A_7C15L;
        Stats stats = new Stats(surface);
        long started = System.nanoTime();
        long cpuStarted = cpuTime();
        for (int index = 0; index < count; index++) {
            SplittableRandom random = new SplittableRandom(seed + index * 0xBF58_476D_1CE4_E5B9L);
            byte[] input = generator.generate(random);
            try {
                target.accept(input, random);
                stats.accepted++;
            } catch (ProtocolViolationException e) {
                if (e.terminateCause() == null) {
                    throw failure(surface, seed, index, input, e);
                }
                stats.rejected++;
            } catch (RuntimeException | Error e) {
                throw failure(surface, seed, index, input, e);
            } catch (Exception e) {
                if (!isDocumented(e, documented)) {
                    throw failure(surface, seed, index, input, e);
                }
                stats.rejected++;
            }
        }
        Tier.current().figures("fuzz %s in %.1f s, %.1f s of CPU (seed %d)", stats,
                (System.nanoTime() - started) / 1e9, (cpuTime() - cpuStarted) / 1e9, seed());
        return stats;
    }

    /** This thread's CPU time in nanoseconds, 0 where unknown (reached reflectively: the module does not read java.management). */
    private static long cpuTime() {
        try {
            Object threads = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
                    .invoke(null);
            return (long) Class.forName("java.lang.management.ThreadMXBean").getMethod("getCurrentThreadCpuTime")
                    .invoke(threads);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return 0;
        }
    }

    private static boolean isDocumented(Exception e, Class<? extends Exception>[] documented) {
        for (Class<? extends Exception> type : documented) {
            if (type.isInstance(e)) {
                return true;
            }
        }
        return false;
    }

    private static AssertionError failure(String surface, long seed, int index, byte[] input, Throwable cause) {
        return new AssertionError(String.format("%s: input %d of the run with seed %d (-Dextsock.fuzz.seed=%d) ended"
                + " in %s; its %d octets: %s", surface, index, seed, seed(), cause, input.length,
                HexFormat.of().formatHex(input)), cause);
    }

    /** What a run did. */
    public static final class Stats {
        public final String surface;
        public long accepted;
        public long rejected;

        Stats(String surface) {
            this.surface = surface;
        }

        public long total() {
            return accepted + rejected;
        }

        @Override
        public String toString() {
            return surface + ": " + total() + " inputs, " + accepted + " accepted, " + rejected + " rejected";
        }
    }
}
