package io.extsock.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The floor under {@code perf compare}'s many-connections row: N connections at once, a thread
 * at each end of each, every connection doing M round trips of 64 bytes, on plain NIO channels
 * with no protocol at all. Every thread blocking inside {@code read} (as {@code java.net.Socket}
 * waits) against every thread waiting in a Selector of its own (as an IWARP_MODE thread must:
 * see {@link NioWaitFloor}), in alternating rounds: the wall time from the clients' common start
 * until the last connection is done, every thread already started and its buffer made.
 *
 * <p>With a thousand threads on two CPUs nearly every wait is a sleep and every message a
 * wake-up, so this is where the Selector's extra system call and its wake-up path weigh most:
 * the ratio is the part of an IWARP_MODE run's cost over plain TCP that waiting in a Selector
 * accounts for on its own.
 *
 * <p>Run: {@code java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*'
 * io.extsock.bench.ManyConnectionsWaitFloor [--quick] [connections [round-trips]]} (default 500
 * and 100, perf compare's; {@code --quick} runs fewer rounds of the same length).
 */
public final class ManyConnectionsWaitFloor {

    private static final int SIZE = 64;
    private static final int DEFAULT_CONNECTIONS = 500;
    private static final int DEFAULT_ROUND_TRIPS = 100;
    /** How long a round may take before it counts as hung. */
    private static final long ROUND_TIMEOUT_SECONDS = 300;

    private ManyConnectionsWaitFloor() {
    }

    public static void main(String[] args) throws Exception {
        RunLength length = RunLength.of(args);
        PositionalNumbers numbers = new PositionalNumbers(args);
        int connections = numbers.get(0, DEFAULT_CONNECTIONS);
        int roundTrips = numbers.get(1, DEFAULT_ROUND_TRIPS);
        if (connections < 1 || roundTrips < 1) {
            throw new IllegalArgumentException("usage: ManyConnectionsWaitFloor [--quick] [connections [round-trips]],"
                    + " both at least 1, not " + connections + " and " + roundTrips);
        }
        PairedComparison.Result result = measure(length, connections, roundTrips);
        System.out.printf("%d connections at once, each %d round trips of %d B, a thread at each end, on NIO channels:"
                + " every thread blocking in read against every thread in a Selector of its own,"
                + " %d alternating rounds (+%d warm-up), Java %s%n%n", connections, roundTrips, SIZE, length.rounds(),
                length.warmupRounds(), Runtime.version());
        FloorTable.header("blocking read", "epoll, then read");
        FloorTable.row(result, "%13.1f ms");
    }

    /** The round trips' wall time, milliseconds, of each round: blocking reads as the baseline. */
    static PairedComparison.Result measure(RunLength length, int connections, int roundTrips) throws Exception {
        List<NioLink> blocking = new ArrayList<>();
        List<NioLink> selecting = new ArrayList<>();
        try {
            for (int i = 0; i < connections; i++) {
                blocking.add(NioLink.open(false));
                selecting.add(NioLink.open(true));
            }
            PairedComparison comparison = new PairedComparison(length.warmupRounds(), length.rounds());
            return comparison.compare("round trips (wall)", SIZE + " B", "ms", false,
                    new Round(blocking, roundTrips), new Round(selecting, roundTrips));
        } finally {
            try {
                Closing.all(blocking);
            } finally {
                Closing.all(selecting);
            }
        }
    }

    /** A round on one kind of link: both ends of every link in a thread of their own. */
    private static final class Round implements Contender {
        private final List<NioLink> links;
        private final int roundTrips;

        Round(List<NioLink> links, int roundTrips) {
            this.links = links;
            this.roundTrips = roundTrips;
        }

        @Override
        public void serve(int round) {
            // every thread of the round is started by run
        }

        /**
         * Starts a server thread and a client thread a link; the clock starts once every one of
         * them is ready (the servers reading, the clients at the start line) and stops when the
         * last client has its last answer. A failing thread closes every link, so that no other
         * stays blocked, and the round throws its failure.
         */
        @Override
        public double run(int round) throws Exception {
            CountDownLatch ready = new CountDownLatch(2 * links.size());
            CountDownLatch go = new CountDownLatch(1);
            CountDownLatch clientsDone = new CountDownLatch(links.size());
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>(2 * links.size());
            long elapsed;
            try {
                for (NioLink link : links) {
                    threads.add(start(() -> {
                        ByteBuffer buffer = ByteBuffer.allocateDirect(SIZE);
                        ready.countDown();
                        for (int i = 0; i < roundTrips; i++) {
                            link.server.readFully(buffer);
                            link.server.writeFully(buffer);
                        }
                    }, failure));
                    threads.add(start(() -> {
                        try {
                            ByteBuffer buffer = ByteBuffer.allocateDirect(SIZE);
                            ready.countDown();
                            go.await();
                            for (int i = 0; i < roundTrips; i++) {
                                link.client.writeFully(buffer);
                                link.client.readFully(buffer);
                            }
                        } finally {
                            clientsDone.countDown();
                        }
                    }, failure));
                }
                awaitOrFail(ready, failure, "the threads to start");
                long start = System.nanoTime();
                go.countDown();
                awaitOrFail(clientsDone, failure, "the round trips");
                elapsed = System.nanoTime() - start;
            } finally {
                go.countDown();  // after a failure too: no client is left at the start line
            }
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(ROUND_TIMEOUT_SECONDS));  // not timed: the servers' last writes
                if (thread.isAlive()) {
                    fail(failure, new IOException("a thread of the round did not end"));
                }
            }
            rethrow(failure);
            return elapsed / 1e6;
        }

        private interface Side {
            void run() throws Exception;
        }

        private Thread start(Side side, AtomicReference<Throwable> failure) {
            Thread thread = new Thread(() -> {
                try {
                    side.run();
                } catch (Throwable e) {
                    fail(failure, e);
                }
            }, "wait-floor-many");
            thread.setDaemon(true);
            thread.start();
            return thread;
        }

        /** Records the round's first failure and closes every link: blocked threads then end too. */
        private void fail(AtomicReference<Throwable> failure, Throwable e) {
            if (failure.compareAndSet(null, e)) {
                try {
                    Closing.all(links);
                } catch (IOException closing) {
                    e.addSuppressed(closing);
                }
            }
        }

        /** Waits for the latch; throws as soon as a thread failed, or once the round's time is up. */
        private void awaitOrFail(CountDownLatch latch, AtomicReference<Throwable> failure, String what)
                throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ROUND_TIMEOUT_SECONDS);
            while (!latch.await(100, TimeUnit.MILLISECONDS)) {
                rethrow(failure);
                if (System.nanoTime() - deadline > 0) {
                    fail(failure, new IOException(what + " did not end within " + ROUND_TIMEOUT_SECONDS + " s"));
                }
            }
            rethrow(failure);
        }

        private static void rethrow(AtomicReference<Throwable> failure) throws Exception {
            Throwable e = failure.get();
            if (e instanceof Exception exception) {
                throw exception;
            }
            if (e != null) {
                throw new IOException("a thread of the round failed: " + e, e);
            }
        }
    }
}
