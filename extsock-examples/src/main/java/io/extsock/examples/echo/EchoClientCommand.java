package io.extsock.examples.echo;

import io.extsock.examples.cli.ConnectionOptions;
import io.extsock.examples.cli.LatencyStats;
import io.extsock.examples.cli.ResultTable;
import io.extsock.examples.cli.SizeConverter;
import io.extsock.examples.cli.Units;
import io.extsock.examples.cli.UserError;
import io.extsock.examples.cli.UserErrors;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code extsock echo client}: sends messages and waits for each echo (ping-pong), on one or
 * more connections at once; checks every echoed byte and reports round-trip latency.
 */
@Command(name = "client", description = "Sends messages to an echo server, checks every echoed byte and prints round-trip "
                + "latency percentiles.")
final class EchoClientCommand implements Callable<Integer> {

    private static final int MAX_SIZE = 64 << 20;

    @Spec
    CommandSpec spec;

    @Mixin
    ConnectionOptions connection;

    @Option(names = "--iwarp", description = "Switch the connection to IWARP_MODE (default: off, plain TCP "
            + "passthrough); the server needs --iwarp too.")
    boolean iwarp;

    @Option(names = "--size", paramLabel = "BYTES", defaultValue = "64", converter = SizeConverter.class,
            description = "Bytes per message (default: ${DEFAULT-VALUE}; suffixes K, M).")
    long size;

    @Option(names = "--count", paramLabel = "N", defaultValue = "1000",
            description = "Messages per connection (default: ${DEFAULT-VALUE}).")
    int count;

    @Option(names = "--concurrency", paramLabel = "N", defaultValue = "1",
            description = "Connections at once, each on its own thread (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Override
    public Integer call() throws Exception {
        if (size < 1 || size > MAX_SIZE) {
            throw new ParameterException(spec.commandLine(), "--size must be from 1 B to 64 MiB: " + size);
        }
        if (count < 1 || concurrency < 1 || concurrency > 1000) {
            throw new ParameterException(spec.commandLine(),
                    "--count must be at least 1 and --concurrency from 1 to 1000");
        }
        connection.checkClient();
        // The first connection before the header: a refused connection is the only line, and the
        // header says what the negotiation agreed on rather than what was asked.
        Socket first = connection.connect(iwarp);
        PrintWriter out = spec.commandLine().getOut();
        out.println("extsock echo: " + concurrency + (concurrency == 1 ? " connection" : " connections") + " x "
                + count + " messages of " + Units.bytes(size) + " to " + connection.peer() + " over "
                + connection.describeAgreed(first));
        out.flush();

        long start = System.nanoTime();
        List<long[]> latencies = runConnections(first);
        long elapsed = System.nanoTime() - start;

        long[] all = latencies.stream().flatMapToLong(Arrays::stream).toArray();
        LatencyStats rtt = LatencyStats.of(all, all.length);
        long messages = (long) count * concurrency;
        ResultTable table = new ResultTable("connections", "messages", "bytes each way", "time", "msg/s",
                "rtt p50[us]", "p90[us]", "p99[us]", "p99.9[us]", "max[us]", "verified");
        table.add(String.valueOf(concurrency), String.valueOf(messages), Units.bytes(messages * size),
                Units.seconds(elapsed), Units.format("%.0f", messages / (elapsed / 1e9)),
                Units.micros(rtt.p50()), Units.micros(rtt.p90()), Units.micros(rtt.p99()), Units.micros(rtt.p999()),
                Units.micros(rtt.max()), "yes");
        table.print(out);
        out.println("every echoed byte verified");
        out.flush();
        return 0;
    }

    private List<long[]> runConnections(Socket first) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        try {
            List<Future<long[]>> results = new ArrayList<>();
            for (int c = 0; c < concurrency; c++) {
                long seed = c;
                results.add(pool.submit(() -> pingPong(seed, seed == 0 ? first : null)));
            }
            List<long[]> latencies = new ArrayList<>();
            for (Future<long[]> result : results) {
                try {
                    latencies.add(result.get());
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException failure) {
                        throw failure;
                    }
                    throw new IllegalStateException(e.getCause());
                }
            }
            return latencies;
        } finally {
            pool.shutdownNow();
        }
    }

    /** One connection's messages, on {@code connected} or a new connection; returns each round trip in nanoseconds. */
    private long[] pingPong(long seed, Socket connected) {
        long[] roundTrips = new long[count];
        int messageSize = (int) size;
        byte[] message = new byte[messageSize];
        byte[] echo = new byte[messageSize];
        SplittableRandom random = new SplittableRandom(seed);
        int done = 0;
        try (Socket socket = connected != null ? connected : connection.connect(iwarp)) {
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            for (; done < count; done++) {
                random.nextBytes(message);
                long start = System.nanoTime();
                out.write(message);
                int got = in.readNBytes(echo, 0, messageSize);
                roundTrips[done] = System.nanoTime() - start;
                if (got < messageSize) {
                    throw new EOFException();
                }
                int differs = Arrays.mismatch(message, echo);
                if (differs >= 0) {
                    throw new UserError("echoed bytes differ from those sent: message " + done + ", byte " + differs);
                }
            }
            socket.shutdownOutput();
            if (in.read() != -1) {
                throw new UserError("the server echoed more bytes than were sent");
            }
            return roundTrips;
        } catch (IOException e) {
            if (e instanceof EOFException || e instanceof java.net.SocketException && !iwarp && done == 0) {
                throw new UserError("the server closed the connection after " + done + " of " + count
                        + " messages" + (iwarp ? "" : " (is it in IWARP_MODE? then add --iwarp)"), e);
            }
            throw UserErrors.during("echoing with " + connection.peer(), e);
        }
    }
}
