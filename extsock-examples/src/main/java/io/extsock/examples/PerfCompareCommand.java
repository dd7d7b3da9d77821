package io.extsock.examples;

import io.extsock.ExtendedServerSocket;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code extsock perf compare}: plain {@code java.net.Socket} (on both ends), passthrough
 * ExtendedSocket and IWARP_MODE side by side in one run, on loopback, client and server in this
 * process; each compared with plain TCP. Rounds alternate their order so that every contender sees the same
 * drift of thread placement, and the ratio is the median of the per-round ratios.
 */
@Command(name = "compare", description = "Runs plain java.net.Socket, passthrough ExtendedSocket and IWARP_MODE side by side on "
                + "loopback and prints each one's ratio to plain TCP.")
final class PerfCompareCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "5",
            description = "Rounds; each runs every contender once (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = {"-n", "--iters"}, paramLabel = "N", defaultValue = "2000",
            description = "Iterations of each run (default: ${DEFAULT-VALUE}).")
    long iterations;

    @Option(names = "--lat-size", paramLabel = "BYTES", defaultValue = "64", converter = SizeConverter.class,
            description = "Message size of the latency runs (default: ${DEFAULT-VALUE}).")
    long latencySize;

    @Option(names = "--bw-size", paramLabel = "BYTES", defaultValue = "64K", converter = SizeConverter.class,
            description = "Message size of the bandwidth runs (default: 64K).")
    long bandwidthSize;

    @Option(names = "--json", description = "One JSON object per line instead of the table.")
    boolean json;

    /** One contender: a test in a mode, and what it is compared with. */
    private record Contender(PerfTest test, PerfMode mode, String socket, PerfTest baseline) {
    }

    private static final List<Contender> CONTENDERS = List.of(
            new Contender(PerfTest.tcp_lat, PerfMode.plain, PerfMode.plain.description(), PerfTest.tcp_lat),
            new Contender(PerfTest.tcp_lat, PerfMode.passthrough, PerfMode.passthrough.description(), PerfTest.tcp_lat),
            new Contender(PerfTest.tcp_lat, PerfMode.iwarp, PerfMode.iwarp.description() + ", stream", PerfTest.tcp_lat),
            new Contender(PerfTest.send_lat, PerfMode.iwarp, "IWARP_MODE, Send/Receive", PerfTest.tcp_lat),
            new Contender(PerfTest.write_lat, PerfMode.iwarp, "IWARP_MODE, RDMA Write", PerfTest.tcp_lat),
            new Contender(PerfTest.read_lat, PerfMode.iwarp, "IWARP_MODE, RDMA Read", PerfTest.tcp_lat),
            new Contender(PerfTest.tcp_bw, PerfMode.plain, PerfMode.plain.description(), PerfTest.tcp_bw),
            new Contender(PerfTest.tcp_bw, PerfMode.passthrough, PerfMode.passthrough.description(), PerfTest.tcp_bw),
            new Contender(PerfTest.tcp_bw, PerfMode.iwarp, PerfMode.iwarp.description() + ", stream", PerfTest.tcp_bw),
            new Contender(PerfTest.send_bw, PerfMode.iwarp, "IWARP_MODE, Send/Receive", PerfTest.tcp_bw),
            new Contender(PerfTest.write_bw, PerfMode.iwarp, "IWARP_MODE, RDMA Write", PerfTest.tcp_bw),
            new Contender(PerfTest.read_bw, PerfMode.iwarp, "IWARP_MODE, RDMA Read", PerfTest.tcp_bw));

    @Override
    public Integer call() throws Exception {
        if (rounds < 1 || iterations < 1) {
            throw new ParameterException(spec.commandLine(), "--rounds and --iters must be at least 1");
        }
        if (latencySize < 2 || latencySize > PerfServer.MAX_SIZE || bandwidthSize < 1 || bandwidthSize > PerfServer.MAX_SIZE) {
            throw new ParameterException(spec.commandLine(), "--lat-size must be from 2 B, --bw-size from 1 B, to 64 MiB");
        }
        PrintWriter out = spec.commandLine().getOut();
        if (!json) {
            out.println("extsock perf compare: loopback, client and server in this process, " + rounds + " rounds of "
                    + iterations + " iterations, median");
            out.flush();
        }
        PerfResult[][] results = new PerfResult[CONTENDERS.size()][rounds];
        // Plain runs meet a plain java.net.ServerSocket: java.net.Socket on both ends, as a
        // program without extsock has; the others an ExtendedServerSocket.
        try (ServerSocket plainServer = new ServerSocket(); ExtendedServerSocket extendedServer = new ExtendedServerSocket()) {
            Endpoint plain = serveInBackground(plainServer);
            Endpoint extended = serveInBackground(extendedServer);
            for (int round = 0; round < rounds; round++) {
                for (int k = 0; k < CONTENDERS.size(); k++) {
                    int c = round % 2 == 0 ? k : CONTENDERS.size() - 1 - k;  // ABC CBA: same drift for all
                    Contender contender = CONTENDERS.get(c);
                    long size = contender.test().latency() ? latencySize : bandwidthSize;
                    results[c][round] = PerfClient.run(contender.mode() == PerfMode.plain ? plain : extended,
                            new PerfParameters(contender.test(), contender.mode(), (int) size, iterations, 0, true, false));
                }
            }
        }
        print(out, results);
        return 0;
    }

    private void print(PrintWriter out, PerfResult[][] results) {
        ResultTable table = new ResultTable("test", "socket", "bytes", "lat p50[usec]", "lat p99[usec]",
                "BW average[MB/sec]", "ratio to plain TCP");
        for (int c = 0; c < CONTENDERS.size(); c++) {
            Contender contender = CONTENDERS.get(c);
            int base = baselineIndex(contender.baseline());
            double[] ratios = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                ratios[r] = contender.test().latency()
                        ? results[c][r].latency().p50() / results[base][r].latency().p50()
                        : results[c][r].bwAverageMBps() / results[base][r].bwAverageMBps();
            }
            double ratio = median(ratios);
            double p50 = median(results[c], r -> r.latency().p50()) / 1e3;
            double p99 = median(results[c], r -> r.latency().p99()) / 1e3;
            double bandwidth = median(results[c], PerfResult::bwAverageMBps);
            if (json) {
                out.println(Units.format("{\"test\":\"%s\",\"mode\":\"%s\",\"socket\":\"%s\",\"bytes\":%d,"
                                + "\"bw_MBps\":%.2f,\"lat_us_p50\":%.2f,\"lat_us_p99\":%.2f,\"ratio_to_plain\":%.3f,"
                                + "\"rounds\":%d}", contender.test(), contender.mode(), contender.socket(),
                        results[c][0].bytes(), bandwidth, p50, p99, ratio, rounds));
            } else {
                table.add(contender.test().toString(), contender.socket(), String.valueOf(results[c][0].bytes()),
                        Units.format("%.2f", p50), Units.format("%.2f", p99), Units.format("%.2f", bandwidth),
                        Units.format("%.2f", ratio));
            }
        }
        if (!json) {
            table.print(out);
            out.println("ratio: of latency (t_typical, lower is better) for *_lat, of bandwidth (higher is better)"
                    + " for *_bw; median of the rounds' ratios");
        }
        out.flush();
    }

    private static int baselineIndex(PerfTest test) {
        for (int c = 0; c < CONTENDERS.size(); c++) {
            if (CONTENDERS.get(c).test() == test && CONTENDERS.get(c).mode() == PerfMode.plain) {
                return c;
            }
        }
        throw new IllegalStateException("no plain baseline for " + test);
    }

    private static double median(PerfResult[] results, java.util.function.ToDoubleFunction<PerfResult> value) {
        return median(Arrays.stream(results).mapToDouble(value).toArray());
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** Binds the server to loopback and serves every connection on its own thread, until it closes. */
    private static Endpoint serveInBackground(ServerSocket server) throws IOException {
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    Thread handler = new Thread(() -> {
                        try (socket) {
                            PerfServer.serve(socket);
                        } catch (IOException | InterruptedException e) {
                            // the client's end reports what went wrong
                        }
                    }, "perf-compare-connection");
                    handler.setDaemon(true);
                    handler.start();
                } catch (IOException closed) {
                    return;
                }
            }
        }, "perf-compare-server");
        acceptor.setDaemon(true);
        acceptor.start();
        return new Endpoint(InetAddress.getLoopbackAddress().getHostAddress(), server.getLocalPort());
    }
}
