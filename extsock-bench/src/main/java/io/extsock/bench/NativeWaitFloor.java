package io.extsock.bench;

import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/**
 * {@link NioWaitFloor} again below the JDK: the same 64-byte ping-pong with no protocol, its
 * sockets made and used through the C library (jnr-ffi), a thread blocking inside {@code read}
 * against a thread that waits in {@code epoll_wait}, and against one that waits in {@code poll},
 * each wait also watching an eventfd through which another thread could end it.
 *
 * <p>Why: {@code NioWaitFloor} shows that a Java engine's wait, a Selector and then a read,
 * costs more than a blocking read, and says an engine cannot block in a channel's read. It
 * leaves open whether a native wait, which a library could reach through jnr-ffi, would cost
 * less than the JDK's Selector. This measures that: if a native wait costs about what the
 * Selector does, the price is the kernel's (two system calls and an epoll or poll wake-up
 * instead of one call), and waiting through jnr-ffi gains nothing (io_uring, which can queue a
 * read and wait in one call, is not measured).
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
                + " blocking read against epoll_wait or poll (each also watching an eventfd), then read,"
                + " %d alternating rounds of %d round trips (+%d warm-up) each, Java %s%n%n", SIZE, length.rounds(),
                length.iterations(FULL_ROUND_TRIPS), length.warmupRounds(), java.lang.Runtime.version());
        for (NativeLink.Wait candidate : new NativeLink.Wait[] {NativeLink.Wait.EPOLL_THEN_READ,
                NativeLink.Wait.POLL_THEN_READ}) {
            RoundTripMeasures result = measure(candidate, length);
            FloorTable.header("blocking read", candidate == NativeLink.Wait.EPOLL_THEN_READ
                    ? "epoll, then read" : "poll, then read");
            FloorTable.row(result.latency(), "%13.2f us");
            FloorTable.row(result.cpu(), "%13.2f us");
            System.out.println();
        }
    }

    /** Blocking reads against the candidate's way of waiting, in alternating rounds on the same two threads. */
    static RoundTripMeasures measure(NativeLink.Wait candidate, RunLength length) throws Exception {
        try (NativeLink blocking = NativeLink.open(NativeLink.Wait.BLOCKING_READ);
             NativeLink waiting = NativeLink.open(candidate)) {
            return PingPongRounds.measure(length, length.iterations(FULL_ROUND_TRIPS), SIZE, ends(blocking),
                    ends(waiting));
        }
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
