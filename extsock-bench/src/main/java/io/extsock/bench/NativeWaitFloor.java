package io.extsock.bench;

import java.util.Map;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/**
 * {@link NioWaitFloor} again below the JDK: the same 64-byte ping-pong with no protocol, its
 * sockets made and used through the C library (jnr-ffi), a thread blocking inside {@code read}
 * against a thread that waits in {@code epoll_wait}, against one that waits in {@code poll},
 * and against one whose receive waits in an io_uring, each wait also watching an eventfd
 * through which another thread could end it. It also counts the system calls a round trip
 * that each way makes to read, write and wait.
 *
 * <p>Why: {@code NioWaitFloor} shows that a Java engine's wait, a Selector and then a read,
 * costs more than a blocking read, and says an engine cannot block in a channel's read. It
 * leaves open whether a native wait, which a library could reach through jnr-ffi, would cost
 * less than the JDK's Selector. This measures that: if a native wait costs about what the
 * Selector does, the price is the kernel's (two system calls and an epoll or poll wake-up
 * instead of one call), and waiting through jnr-ffi gains nothing. io_uring is the exception
 * to weigh: one {@code io_uring_enter} submits a receive and sleeps until it completes, so a
 * wait that another thread can end costs the calls of a blocking read.
 *
 * <p>Run: {@code java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*'
 * io.extsock.bench.NativeWaitFloor [--quick]}; pinned to one CPU ({@code taskset -c 0}) for the
 * steady measure on a 2-vCPU machine. Linux only.
 */
public final class NativeWaitFloor {

    private static final int SIZE = 64;
    private static final int FULL_ROUND_TRIPS = 100_000;

    private NativeWaitFloor() {
    }

    public static void main(String[] args) throws Exception {
        RunLength length = RunLength.of(args);
        System.out.printf("%d-byte ping-pong on sockets made and used through the C library (jnr-ffi),"
                + " blocking read against epoll_wait or poll, then read, or a receive waited for in an io_uring"
                + " (each also watching an eventfd), %d alternating rounds of %d round trips (+%d warm-up) each,"
                + " Java %s%n%n", SIZE, length.rounds(), length.iterations(FULL_ROUND_TRIPS), length.warmupRounds(),
                java.lang.Runtime.version());
        for (NativeLink.Wait candidate : new NativeLink.Wait[] {NativeLink.Wait.EPOLL_THEN_READ,
                NativeLink.Wait.POLL_THEN_READ, NativeLink.Wait.IO_URING}) {
            Measured result = measure(candidate, length);
            FloorTable.header("blocking read", NAMES.get(candidate));
            FloorTable.row(result.roundTrips().latency(), "%13.2f us");
            FloorTable.row(result.roundTrips().cpu(), "%13.2f us");
            System.out.printf("%-22s %16.2f %16.2f%n", "system calls a RT", result.blockingCalls(),
                    result.candidateCalls());
            System.out.println();
        }
    }

    private static final Map<NativeLink.Wait, String> NAMES = Map.of(NativeLink.Wait.EPOLL_THEN_READ,
            "epoll, then read", NativeLink.Wait.POLL_THEN_READ, "poll, then read", NativeLink.Wait.IO_URING,
            "io_uring receive");

    /**
     * What one comparison gives: the round trips' measures, and each link's system calls to read,
     * write and wait a round trip, both ends together, counted by the link over every round.
     */
    record Measured(RoundTripMeasures roundTrips, double blockingCalls, double candidateCalls) {
    }

    /** Blocking reads against the candidate's way of waiting, in alternating rounds on the same two threads. */
    static Measured measure(NativeLink.Wait candidate, RunLength length) throws Exception {
        int iterations = length.iterations(FULL_ROUND_TRIPS);
        double roundTrips = (double) (length.warmupRounds() + length.rounds()) * iterations;
        try (NativeLink blocking = NativeLink.open(NativeLink.Wait.BLOCKING_READ);
             NativeLink waiting = NativeLink.open(candidate)) {
            RoundTripMeasures measured = PingPongRounds.measure(length, iterations, SIZE, ends(blocking),
                    ends(waiting));
            return new Measured(measured, calls(blocking) / roundTrips, calls(waiting) / roundTrips);
        }
    }

    private static long calls(NativeLink link) {
        return link.client.calls() + link.server.calls();
    }

    private static PingPongRounds.Link ends(NativeLink link) {
        return new PingPongRounds.Link() {
            public PingPongRounds.Exchange server() {
                Pointer buffer = Memory.allocateDirect(Runtime.getSystemRuntime(), SIZE);
                return (index, check) -> {
                    link.server.readFully(buffer, SIZE);
                    link.server.writeFully(buffer, SIZE);
                };
            }

            public PingPongRounds.Exchange client() {
                Pointer buffer = Memory.allocateDirect(Runtime.getSystemRuntime(), SIZE);
                return (index, check) -> {
                    buffer.putInt(0, index);
                    link.client.writeFully(buffer, SIZE);
                    link.client.readFully(buffer, SIZE);
                    if (check && buffer.getInt(0) != index) {
                        throw new IllegalStateException("round trip " + index + " came back as " + buffer.getInt(0));
                    }
                };
            }
        };
    }
}
