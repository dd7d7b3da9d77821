package io.extsock.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The floor under {@code perf compare}'s many-connections row: N connections at once, a thread
 * at each end of each, every connection doing M round trips of 64 bytes, on plain NIO channels
 * with no protocol at all. Every thread blocking inside {@code read} (as {@code java.net.Socket}
 * waits) against every thread waiting in a Selector of its own (as an IWARP_MODE thread must:
 * see {@link NioWaitFloor}), in alternating rounds: the wall time from a common start until the
 * last connection is done.
 *
 * <p>With two thousand threads on two CPUs, every wait is a sleep and every message a wake-up,
 * so this is where the Selector's extra system call and its wake-up path weigh most: the ratio
 * is the least an IWARP_MODE run of the same shape costs over plain TCP in pure Java.
 *
 * <p>Run: {@code java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*'
 * io.extsock.bench.ManyConnectionsWaitFloor [--quick] [connections [round-trips]]} (default 500
 * and 100, perf compare's).
 */
public final class ManyConnectionsWaitFloor {

    private static final int SIZE = 64;
    private static final int DEFAULT_CONNECTIONS = 500;
    private static final int DEFAULT_ROUND_TRIPS = 100;

    private ManyConnectionsWaitFloor() {
    }

    public static void main(String[] args) throws Exception {
        RunLength length = RunLength.of(args);
        List<Integer> numbers = new ArrayList<>();
        for (String arg : args) {
            if (!arg.startsWith("--")) {
                numbers.add(Integer.parseInt(arg));
            }
        }
        int connections = numbers.size() > 0 ? numbers.get(0) : DEFAULT_CONNECTIONS;
        int roundTrips = numbers.size() > 1 ? numbers.get(1) : DEFAULT_ROUND_TRIPS;
        PairedComparison.Result r = measure(length, connections, roundTrips);
        System.out.printf("%d connections at once, each %d round trips of %d B, a thread at each end, on NIO channels:"
                + " every thread blocking in read against every thread in a Selector of its own,"
                + " %d alternating rounds (+%d warm-up), Java %s%n%n", connections, roundTrips, SIZE, length.rounds(),
                length.warmupRounds(), Runtime.version());
        double[] interval = r.ratioInterval();
        System.out.printf("%-22s %16s %16s %8s %-17s%n", "measure", "blocking read", "epoll, then read", "ratio",
                " (95% interval)");
        System.out.printf("%-22s %13.1f ms %13.1f ms %8.3f  [%.3f, %.3f]%n", r.test(), r.baselineMedian(),
                r.candidateMedian(), r.ratio(), interval[0], interval[1]);
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
                    rounds(blocking, roundTrips), rounds(selecting, roundTrips));
        } finally {
            closeAll(blocking);
            closeAll(selecting);
        }
    }

    /** A round: both ends of every link in a thread of their own, all released at once. */
    private static Contender rounds(List<NioLink> links, int roundTrips) {
        return new Contender() {
            public void serve(int round) {
                // every thread of the round is started by run
            }

            public double run(int round) throws Exception {
                CountDownLatch go = new CountDownLatch(1);
                CountDownLatch clientsDone = new CountDownLatch(links.size());
                AtomicReference<Exception> failure = new AtomicReference<>();
                List<Thread> threads = new ArrayList<>(2 * links.size());
                for (NioLink link : links) {
                    threads.add(start(() -> echo(link.server, roundTrips), go, failure, null));
                    threads.add(start(() -> ask(link.client, roundTrips), go, failure, clientsDone));
                }
                long start = System.nanoTime();
                go.countDown();
                clientsDone.await();
                long elapsed = System.nanoTime() - start;
                for (Thread thread : threads) {
                    thread.join();  // untimed: the servers' last writes, the threads' ends
                }
                if (failure.get() != null) {
                    throw failure.get();
                }
                return elapsed / 1e6;
            }
        };
    }

    private interface Part {
        void run() throws IOException;
    }

    private static Thread start(Part part, CountDownLatch go, AtomicReference<Exception> failure,
                                CountDownLatch done) {
        Thread thread = new Thread(() -> {
            try {
                go.await();
                part.run();
            } catch (Exception e) {
                failure.compareAndSet(null, e);
            } finally {
                if (done != null) {
                    done.countDown();
                }
            }
        }, "wait-floor-many");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void ask(NioLink.End client, int roundTrips) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(SIZE);
        for (int i = 0; i < roundTrips; i++) {
            client.writeFully(buffer);
            client.readFully(buffer);
        }
    }

    private static void echo(NioLink.End server, int roundTrips) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(SIZE);
        for (int i = 0; i < roundTrips; i++) {
            server.readFully(buffer);
            server.writeFully(buffer);
        }
    }

    private static void closeAll(List<NioLink> links) throws IOException {
        for (NioLink link : links) {
            link.close();
        }
    }
}
