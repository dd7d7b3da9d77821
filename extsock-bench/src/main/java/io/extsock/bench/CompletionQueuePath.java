package io.extsock.bench;

import io.extsock.core.verbs.CompletionRing;
import io.extsock.verbs.CompletionHandler;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.CompletionView;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WorkOpcode;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Control;

/**
 * The completion path through {@link CompletionRing}:
 * <ol>
 *   <li>{@link #addPoll}: one completion added and polled on one thread, as the engine and a
 *       polling application on the same thread take it;</li>
 *   <li>{@link #addPollBatch16}: 16 added, then polled in one call (reported per completion);</li>
 *   <li>{@link #addTake}: one added and taken as a {@link WorkCompletion}, the allocating
 *       convenience, for comparison;</li>
 *   <li>{@code pingPong}: one completion bounced between two threads through two rings, each
 *       side waiting with {@code await} (reported per round trip, two hand-offs), with the
 *       default spin before parking and with none (every wait parks).</li>
 * </ol>
 *
 * <p>Run: {@code mvn -B -o -q -DskipTests package -pl extsock-bench -am && java -jar
 * extsock-bench/target/benchmarks.jar CompletionQueuePath -prof gc -f 1 -wi 3 -i 5}; for the
 * ping-pong with both threads on one CPU, prefix {@code taskset -c 0} and select
 * {@code CompletionQueuePath.pingPong}.
 *
 * <p>On the 2-vCPU machine of ARCHITECTURE.md, JDK 17.0.19, while other builds ran (load ≈ 3):
 * <pre>
 * benchmark                  spinNanos   unpinned ns/op    taskset -c 0 ns/op   gc.alloc.rate.norm
 * addPoll                        -            34.1 ± 1.6          -                 ≈ 10⁻⁴ B/op
 * addPollBatch16 (per one)       -            21.8 ± 1.1          -                 ≈ 10⁻⁴ B/op
 * addTake                        -            39.2 ± 3.0          -                 48 B/op
 * pingPong (round trip)      50000          1283 ± 265         1361 ± 63           ≈ 0.01 B/op
 * pingPong (round trip)          0         25833 ± 44677       2515 ± 105          ≈ 0.1 B/op
 * </pre>
 * The near-zero allocation figures are JMH's own per-iteration bookkeeping spread over
 * millions of operations; addTake's 48 octets are its {@link WorkCompletion}. Parking on every
 * wait (spinNanos 0) costs a wake-up per hop, 12 to 38 µs per round trip unpinned, depending
 * on where the scheduler puts the two threads; spinning first costs about 1.3 µs wherever
 * they are, because the ring spins by yielding. Spinning with {@code Thread.onSpinWait}
 * instead measured 1.2 to 1.6 µs on two CPUs but about 103 µs on one (the waiter held the
 * CPU its producer needed for the whole spin).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CompletionQueuePath {

    /** How long a ping-pong side waits before it looks whether the measurement has stopped. */
    private static final long STOP_CHECK_MILLIS = 10;

    /** A handler that keeps nothing but a sum, as an application's polling loop would. */
    static final class TagSum implements CompletionHandler {
        long sum;

        @Override
        public void onCompletion(CompletionView completion) {
            sum += completion.tag();
        }
    }

    @State(Scope.Thread)
    public static class OneThread {
        final CompletionRing ring = new CompletionRing(64);
        final TagSum handler = new TagSum();
        long tag;
    }

    @State(Scope.Group)
    public static class TwoThreads {
        @Param({"50000", "0"})
        long spinNanos;

        CompletionRing there;
        CompletionRing back;

        @Setup(Level.Trial)
        public void rings() {
            there = new CompletionRing(64, spinNanos);
            back = new CompletionRing(64, spinNanos);
        }

        /** One completion in flight per iteration, whatever the last one left behind at its stop. */
        @Setup(Level.Iteration)
        public void drain() {
            CompletionHandler discard = view -> { };
            while (there.poll(discard, 64) > 0 || back.poll(discard, 64) > 0) {
                Thread.onSpinWait();
            }
        }
    }

    @State(Scope.Thread)
    public static class Side {
        final TagSum handler = new TagSum();
        long tag;
    }

    @Benchmark
    public long addPoll(OneThread state) {
        state.ring.add(state.tag++, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, 1448, false, 0, null);
        state.ring.poll(state.handler, 1);
        return state.handler.sum;
    }

    @Benchmark
    @OperationsPerInvocation(16)
    public long addPollBatch16(OneThread state) {
        for (int i = 0; i < 16; i++) {
            state.ring.add(state.tag++, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, 1448, false, 0, null);
        }
        state.ring.poll(state.handler, 16);
        return state.handler.sum;
    }

    @Benchmark
    public WorkCompletion addTake(OneThread state) throws InterruptedException {
        state.ring.add(state.tag++, WorkOpcode.SEND, CompletionStatus.SUCCESS, 64, false, 0, null);
        return state.ring.take(0, TimeUnit.NANOSECONDS);
    }

    /** Sends one completion there and waits for it to come back. */
    @Benchmark
    @Group("pingPong")
    @GroupThreads(1)
    public long ping(TwoThreads rings, Side side, Control control) throws InterruptedException {
        rings.there.add(side.tag++, WorkOpcode.SEND, CompletionStatus.SUCCESS, 64, false, 0, null);
        return waitAndPoll(rings.back, side, control);
    }

    /** Waits for a completion and sends it back. */
    @Benchmark
    @Group("pingPong")
    @GroupThreads(1)
    public long pong(TwoThreads rings, Side side, Control control) throws InterruptedException {
        long sum = waitAndPoll(rings.there, side, control);
        rings.back.add(side.tag++, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, 64, false, 0, null);
        return sum;
    }

    /** Waits in slices, so that a side whose partner stopped at the end of an iteration stops too. */
    private static long waitAndPoll(CompletionRing ring, Side side, Control control) throws InterruptedException {
        while (!ring.await(STOP_CHECK_MILLIS, TimeUnit.MILLISECONDS)) {
            if (control.stopMeasurement) {
                return side.handler.sum;
            }
        }
        ring.poll(side.handler, 1);
        return side.handler.sum;
    }
}
