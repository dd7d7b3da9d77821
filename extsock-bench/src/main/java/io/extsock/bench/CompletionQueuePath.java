package io.extsock.bench;

import io.extsock.core.verbs.CompletionRecord;
import io.extsock.core.verbs.CompletionRing;
import io.extsock.verbs.CompletionCause;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Control;

/**
 * The completion path through {@link CompletionRing}, which only adds and polls (waiting is the
 * engine's, in the connection's own progress: see the engine's package-info):
 * <ol>
 *   <li>{@link #addPoll}: one completion added and polled on one thread, as the engine and a
 *       polling application on the same thread take it;</li>
 *   <li>{@link #addPollBatch16}: 16 added, then polled in one call (reported per completion);</li>
 *   <li>{@link #addPollKept}: one added and polled into a {@link WorkCompletion}, the allocating
 *       convenience the completion queue's {@code take} uses, for comparison;</li>
 *   <li>{@code pingPong}: one completion bounced between two threads through two rings, each
 *       side polling and yielding between empty polls (reported per round trip, two hand-offs).</li>
 * </ol>
 *
 * <p>Run: {@code mvn -B -o -q -DskipTests package -pl extsock-bench -am && java -jar
 * extsock-bench/target/benchmarks.jar CompletionQueuePath -prof gc -f 1 -wi 3 -i 5}; for the
 * ping-pong with both threads on one CPU, prefix {@code taskset -c 0} and select
 * {@code CompletionQueuePath.pingPong}.
 *
 * <p>On the 2-vCPU machine of ARCHITECTURE.md, JDK 17.0.19, while other builds ran (load ≈ 3),
 * measured when the ring still had a wait protocol of its own (its yielding spin is what the
 * ping-pong sides do now):
 * <pre>
 * benchmark                  unpinned ns/op    taskset -c 0 ns/op   gc.alloc.rate.norm
 * addPoll                       34.1 ± 1.6          -                 ≈ 10⁻⁴ B/op
 * addPollBatch16 (per one)      21.8 ± 1.1          -                 ≈ 10⁻⁴ B/op
 * addTake (now addPollKept)     39.2 ± 3.0          -                 48 B/op
 * pingPong (round trip)       1283 ± 265         1361 ± 63           ≈ 0.01 B/op
 * </pre>
 * The near-zero allocation figures are JMH's own per-iteration bookkeeping spread over
 * millions of operations; 48 octets are a {@link WorkCompletion}. Yielding between polls costs
 * about 1.3 µs per round trip wherever the two threads are; spinning with {@code
 * Thread.onSpinWait} instead measured 1.2 to 1.6 µs on two CPUs but about 103 µs on one (the
 * waiter held the CPU its producer needed).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CompletionQueuePath {

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
        final Keep keep = new Keep();
        /** Reused for every add, as the queue pair reuses its own. */
        final CompletionRecord completion = new CompletionRecord();
        long tag;
    }

    /** A handler that keeps each completion as a {@link WorkCompletion}. */
    static final class Keep implements CompletionHandler {
        WorkCompletion kept;

        @Override
        public void onCompletion(CompletionView completion) {
            kept = WorkCompletion.of(completion);
        }
    }

    @State(Scope.Group)
    public static class TwoThreads {
        CompletionRing there;
        CompletionRing back;

        @Setup(Level.Trial)
        public void rings() {
            there = new CompletionRing(64);
            back = new CompletionRing(64);
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
        final CompletionRecord completion = new CompletionRecord();
        long tag;
    }

    @Benchmark
    public long addPoll(OneThread state) {
        state.ring.add(state.completion.set(state.tag++, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, 1448,
                false, 0, null, CompletionCause.NONE));
        state.ring.poll(state.handler, 1);
        return state.handler.sum;
    }

    @Benchmark
    @OperationsPerInvocation(16)
    public long addPollBatch16(OneThread state) {
        for (int i = 0; i < 16; i++) {
            state.ring.add(state.completion.set(state.tag++, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, 1448,
                    false, 0, null, CompletionCause.NONE));
        }
        state.ring.poll(state.handler, 16);
        return state.handler.sum;
    }

    @Benchmark
    public WorkCompletion addPollKept(OneThread state) {
        state.ring.add(state.completion.set(state.tag++, WorkOpcode.SEND, CompletionStatus.SUCCESS, 64,
                false, 0, null, CompletionCause.NONE));
        state.ring.poll(state.keep, 1);
        return state.keep.kept;
    }

    /** Sends one completion there and waits for it to come back. */
    @Benchmark
    @Group("pingPong")
    @GroupThreads(1)
    public long ping(TwoThreads rings, Side side, Control control) {
        rings.there.add(side.completion.set(side.tag++, WorkOpcode.SEND, CompletionStatus.SUCCESS, 64,
                false, 0, null, CompletionCause.NONE));
        return waitAndPoll(rings.back, side, control);
    }

    /** Waits for a completion and sends it back. */
    @Benchmark
    @Group("pingPong")
    @GroupThreads(1)
    public long pong(TwoThreads rings, Side side, Control control) {
        long sum = waitAndPoll(rings.there, side, control);
        rings.back.add(side.completion.set(side.tag++, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, 64,
                false, 0, null, CompletionCause.NONE));
        return sum;
    }

    /** Polls, yielding between empty polls, until a completion comes or the measurement stopped. */
    private static long waitAndPoll(CompletionRing ring, Side side, Control control) {
        while (ring.poll(side.handler, 1) == 0) {
            if (control.stopMeasurement) {
                return side.handler.sum;
            }
            Thread.yield();  // not onSpinWait: the other side may be waiting for this very CPU
        }
        return side.handler.sum;
    }
}
