package io.extsock.examples.perf;

import io.extsock.ExtendedServerSocket;
import io.extsock.examples.cli.Background;
import io.extsock.examples.cli.Endpoint;
import io.extsock.examples.cli.ResultTable;
import io.extsock.examples.cli.SizeConverter;
import io.extsock.examples.cli.Units;
import io.extsock.examples.file.FileCompare;
import io.extsock.examples.file.FileMethod;
import io.extsock.examples.file.FileReceiver;
import io.extsock.examples.perf.AlternatingRounds.Row;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code extsock perf compare}: plain {@code java.net.Socket} (on both ends), passthrough
 * ExtendedSocket and IWARP_MODE side by side in one run, on loopback, client and server in this
 * process; each compared with plain TCP. Rounds alternate their order (ABC CBA) so that every
 * contender sees the same drift of thread placement; each row's ratio is the median of its
 * per-round ratios, with a distribution-free 95% interval for that median ({@link MedianInterval}).
 */
@Command(name = "compare", description = "Runs plain java.net.Socket, passthrough ExtendedSocket and IWARP_MODE side by side on "
                + "loopback and prints each one's ratio to plain TCP: the median of the rounds' ratios and its 95%% interval.")
final class PerfCompareCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "6",
            description = "Rounds; each runs every contender once. A 95%% interval needs at least 6 (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--warm-up-rounds", paramLabel = "N", defaultValue = "1",
            description = "Rounds of the latency and bandwidth rows run first and not counted, so that the JIT "
                    + "compiler's work falls outside the measured rounds (default: ${DEFAULT-VALUE}).")
    int warmUpRounds;

    @Option(names = {"-n", "--iters"}, paramLabel = "N", defaultValue = "2000",
            description = "Iterations of each latency run, and the fewest of a bandwidth run (default: ${DEFAULT-VALUE}).")
    long iterations;

    @Option(names = "--bw-bytes", paramLabel = "BYTES", defaultValue = "1G", converter = SizeConverter.class,
            description = "Bytes each bandwidth run moves at least, in as many more iterations as that takes: rounds "
                    + "of a few milliseconds measure thread placement, not throughput (default: ${DEFAULT-VALUE}).")
    long bandwidthBytes;

    @Option(names = "--lat-size", paramLabel = "BYTES", defaultValue = "64", converter = SizeConverter.class,
            description = "Message size of the latency runs (default: ${DEFAULT-VALUE}).")
    long latencySize;

    @Option(names = {"--bw-sizes", "--bw-size"}, paramLabel = "BYTES", split = ",", defaultValue = "64K",
            converter = SizeConverter.class,
            description = "Message sizes of the bandwidth runs, comma-separated (e.g. 4K,64K,1M); every bandwidth "
                    + "contender runs at each, compared with plain TCP at the same size (default: 64K).")
    List<Long> bandwidthSizes;

    @Option(names = "--json", description = "One JSON object per line instead of the tables.")
    boolean json;

    @Option(names = "--many", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "The many-connections rows: --conns connections at once, each --conn-round-trips round trips "
                    + "of 64 B, plain and IWARP_MODE, on platform and on virtual threads (JDK 21+) (default: on; "
                    + "--no-many for a quick run).")
    boolean many;

    @Option(names = "--conns", paramLabel = "N", defaultValue = "500",
            description = "Connections of the many-connections rows (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--conn-round-trips", paramLabel = "N", defaultValue = "100",
            description = "Round trips of each connection in the many-connections rows (default: ${DEFAULT-VALUE}).")
    int connectionRoundTrips;

    @Option(names = "--file-size", paramLabel = "BYTES", defaultValue = "0", converter = SizeConverter.class,
            description = "The file rows: file get of a temporary file of this size (e.g. 256M; made, and deleted, in "
                    + "the temporary directory, which must have room for two copies) by RDMA Write and RDMA Read, "
                    + "against plain TCP's transferTo (sendfile) (default: off).")
    long fileSize;

    @Option(names = {"-t", "--tx-depth"}, paramLabel = "N",
            description = "send_bw, write_bw, read_bw rows: requests in flight, as perf client's -t (default: 128; at "
                    + "most 512, the engine's send queue).")
    Integer txDepth;

    @Option(names = {"-r", "--rx-depth"}, paramLabel = "N",
            description = "send_bw rows: Receives the receiving end keeps posted, as perf client's -r (default: up to "
                    + "128, at most 64 MiB of them). On a kernel whose TCP paces by what is in flight (BBR), this "
                    + "moves the rate: see docs/benchmarks.md.")
    Integer rxDepth;

    @Option(names = {"-l", "--post_list"}, paramLabel = "N",
            description = "Bandwidth rows: messages posted at once, as perf client's -l: Sends, Writes and Reads in "
                    + "posting lists of N, and tcp_bw rows (plain TCP, passthrough and the IWARP_MODE stream) writing "
                    + "N messages with each write, the same batching (default: 1).")
    Integer postList;

    @Option(names = {"-o", "--outs"}, paramLabel = "N",
            description = "read_bw rows: RDMA Reads outstanding at once, as perf client's -o (default: the engine's 16).")
    Integer outstandingReads;

    /** Iterations --bw-bytes may ask of a bandwidth run, at most (each keeps a timestamp: 8 MB). */
    static final long MAX_BANDWIDTH_ITERATIONS = 1 << 20;

    /** The many-connections rows' request and response size. */
    static final int MANY_SIZE = 64;

    /** A latency or bandwidth contender: a test in a mode, at a size. */
    private record Contender(PerfTest test, PerfMode mode, String socket) {
    }

    /** The latency contenders; the first of each test is its plain baseline. */
    private static final List<Contender> LATENCY = List.of(
            new Contender(PerfTest.tcp_lat, PerfMode.plain, PerfMode.plain.description()),
            new Contender(PerfTest.tcp_lat, PerfMode.passthrough, PerfMode.passthrough.description()),
            new Contender(PerfTest.tcp_lat, PerfMode.iwarp, PerfMode.iwarp.description() + ", stream"),
            new Contender(PerfTest.send_lat, PerfMode.iwarp, "IWARP_MODE, Send/Receive"),
            new Contender(PerfTest.write_lat, PerfMode.iwarp, "IWARP_MODE, RDMA Write"),
            new Contender(PerfTest.tcp_rr, PerfMode.plain, PerfMode.plain.description() + ", request/response"),
            new Contender(PerfTest.read_lat, PerfMode.iwarp, "IWARP_MODE, RDMA Read"));

    private static final List<Contender> BANDWIDTH = List.of(
            new Contender(PerfTest.tcp_bw, PerfMode.plain, PerfMode.plain.description()),
            new Contender(PerfTest.tcp_bw, PerfMode.passthrough, PerfMode.passthrough.description()),
            new Contender(PerfTest.tcp_bw, PerfMode.iwarp, PerfMode.iwarp.description() + ", stream"),
            new Contender(PerfTest.send_bw, PerfMode.iwarp, "IWARP_MODE, Send/Receive"),
            new Contender(PerfTest.write_bw, PerfMode.iwarp, "IWARP_MODE, RDMA Write"),
            new Contender(PerfTest.read_bw, PerfMode.iwarp, "IWARP_MODE, RDMA Read"));

    /**
     * The plain-TCP test a test's ratio is taken to. The one-way latencies (ping-pong halves) to
     * tcp_lat's half round trip; an RDMA Read, a whole round trip (request out, data back), to
     * tcp_rr's whole request/response round trip; bandwidths to tcp_bw at the same size.
     */
    static PerfTest baselineOf(PerfTest test) {
        return switch (test) {
            case read_lat, tcp_rr -> PerfTest.tcp_rr;
            case tcp_lat, send_lat, write_lat -> PerfTest.tcp_lat;
            case tcp_bw, send_bw, write_bw, read_bw -> PerfTest.tcp_bw;
        };
    }

    /** What a table says a test is compared with. */
    static String comparedWith(PerfTest baseline, long bytes) {
        return switch (baseline) {
            case tcp_lat -> "plain tcp_lat " + bytes + " B (half round trip)";
            case tcp_rr -> "plain tcp_rr " + bytes + " B (full round trip)";
            default -> "plain " + baseline + " " + bytes + " B";
        };
    }

    @Override
    public Integer call() throws Exception {
        if (rounds < 1 || iterations < 1) {
            throw new ParameterException(spec.commandLine(), "--rounds and --iters must be at least 1");
        }
        if (bandwidthBytes < 0) {
            throw new ParameterException(spec.commandLine(), "--bw-bytes must not be negative: " + bandwidthBytes);
        }
        if (warmUpRounds < 0) {
            throw new ParameterException(spec.commandLine(), "--warm-up-rounds must not be negative: " + warmUpRounds);
        }
        if (latencySize < 2 || latencySize > PerfServer.MAX_SIZE) {
            throw new ParameterException(spec.commandLine(), "--lat-size must be from 2 B to 64 MiB");
        }
        for (long size : bandwidthSizes) {
            if (size < 1 || size > PerfServer.MAX_SIZE) {
                throw new ParameterException(spec.commandLine(), "--bw-sizes must be from 1 B to 64 MiB: " + size);
            }
        }
        if (many && (connections < 1 || connectionRoundTrips < 1)) {
            throw new ParameterException(spec.commandLine(), "--conns and --conn-round-trips must be at least 1");
        }
        if (fileSize < 0) {
            throw new ParameterException(spec.commandLine(), "--file-size must not be negative: " + fileSize);
        }
        String depthProblem = txDepth != null ? PerfClientCommand.txDepthProblem(txDepth, false) : null;
        if (depthProblem == null && rxDepth != null) {
            depthProblem = SendPerf.receiveDepthProblem(rxDepth, (int) (long) Collections.max(bandwidthSizes), false);
        }
        if (depthProblem != null) {
            throw new ParameterException(spec.commandLine(), depthProblem);
        }
        String outsProblem = outstandingReads != null
                ? PerfClientCommand.outstandingReadsProblem(outstandingReads) : null;
        if (outsProblem != null) {
            throw new ParameterException(spec.commandLine(), outsProblem);
        }
        for (long size : bandwidthSizes) {
            for (Contender contender : BANDWIDTH) {
                String problem = PerfClientCommand.listAndReadsProblem(bandwidthRun(contender, size));
                if (problem != null) {
                    throw new ParameterException(spec.commandLine(), problem + " (at " + Units.bytes(size) + ")");
                }
            }
        }
        List<Long> sizes = bandwidthSizes.stream().distinct().toList();
        PrintWriter out = spec.commandLine().getOut();
        if (!json) {
            out.println("extsock perf compare: loopback, client and server in this process, " + rounds + " rounds of "
                    + iterations + " iterations (bandwidth: at least " + Units.bytes(bandwidthBytes) + "; after "
                    + warmUpRounds + " not counted" + depths() + "), median ratio with its 95% interval");
            out.flush();
        }
        // Plain runs meet a plain java.net.ServerSocket: java.net.Socket on both ends, as a
        // program without extsock has; the others an ExtendedServerSocket.
        try (ServerSocket plainServer = new ServerSocket(); ExtendedServerSocket extendedServer = new ExtendedServerSocket();
             FileCompare files = fileSize > 0 ? new FileCompare(fileSize) : null) {
            Endpoint plain = serveInBackground(plainServer);
            Endpoint extended = serveInBackground(extendedServer);
            List<PerfRow> perfRows = perfRows(plain, extended, sizes);
            List<Row<?>> all = new ArrayList<>();
            perfRows.forEach(r -> all.add(r.row()));
            List<ManyRow> manyRows = many ? manyRows() : List.of();
            manyRows.forEach(r -> all.add(r.row()));
            List<FileRow> fileRows = files != null ? fileRows(files) : List.of();
            fileRows.forEach(r -> all.add(r.row()));
            AlternatingRounds.warmUp(perfRows.stream().map(PerfRow::row).toList(), warmUpRounds);
            AlternatingRounds.run(all, rounds);
            printPerf(out, perfRows);
            if (many) {
                printMany(out, manyRows);
            }
            if (files != null) {
                printFiles(out, fileRows);
            }
        }
        if (!json) {
            out.println();
            out.println("ratio: each round's figure named in \"ratio of\" (the total time, in the many-connections"
                    + " table; MB/sec in the file table) over the same figure of the row named in \"compared with\","
                    + " in the same round; the median of those per-round ratios, with its 95% interval (from order"
                    + " statistics); \"n<6\": too few rounds for one. It is not the ratio of the medians shown, which"
                    + " can differ when the rounds vary.");
            out.println("so: faster or slower than the row compared with, whichever way its figure goes (lower latency"
                    + " or time, higher bandwidth is faster), when the whole interval is on one side of 1.");
            out.println("p99 ratio: a latency row's tail, its p99 over the compared row's, taken the same way (the"
                    + " median of the per-round ratios, with its interval).");
            out.println("latency (t_typical): lower is better; tcp_lat, send_lat, write_lat are one way (half a"
                    + " ping-pong), tcp_rr and read_lat a whole round trip. Bandwidth: higher is better.");
            out.println("TCP congestion control: " + TcpCongestionControl.name() + " (loopback bandwidth depends on it:"
                    + " see docs/benchmarks.md).");
        }
        out.flush();
        return 0;
    }

    /** A latency or bandwidth row: the contender, its run, and its measurements. */
    private record PerfRow(Contender contender, PerfParameters run, Row<PerfResult> row) {
    }

    private List<PerfRow> perfRows(Endpoint plain, Endpoint extended, List<Long> sizes) {
        List<PerfRow> rows = new ArrayList<>();
        for (Contender contender : LATENCY) {
            rows.add(perfRow(contender, latencySize, plain, extended, rows));
        }
        for (long size : sizes) {
            for (Contender contender : BANDWIDTH) {
                rows.add(perfRow(contender, size, plain, extended, rows));
            }
        }
        return rows;
    }

    private PerfRow perfRow(Contender contender, long size, Endpoint plain, Endpoint extended, List<PerfRow> earlier) {
        PerfTest test = contender.test();
        PerfTest baselineTest = baselineOf(test);
        Row<PerfResult> baseline = earlier.stream()
                .filter(r -> r.contender().test() == baselineTest && r.contender().mode() == PerfMode.plain
                        && r.run().size() == size)
                .map(PerfRow::row).findFirst().orElse(null);
        PerfParameters run = test.latency() ? new PerfParameters(test, contender.mode(), (int) size, iterations, 0,
                true, false) : bandwidthRun(contender, size);
        Endpoint server = contender.mode() == PerfMode.plain ? plain : extended;
        ToDoubleFunction<PerfResult> figure = test.latency() ? r -> r.latency().p50() : PerfResult::bwAverageMBps;
        return new PerfRow(contender, run, new Row<>(() -> PerfClient.run(server, run), figure, baseline,
                comparedWith(baselineTest, size)));
    }

    /** A bandwidth row's run: at least --bw-bytes, with the depths and post list given. */
    private PerfParameters bandwidthRun(Contender contender, long size) {
        PerfTest test = contender.test();
        long runIterations = Math.max(iterations, Math.min(MAX_BANDWIDTH_ITERATIONS, (bandwidthBytes + size - 1) / size));
        return new PerfParameters(test, contender.mode(), (int) size, runIterations, 0, true, false, false,
                test.rdma() && txDepth != null ? txDepth : 0, test == PerfTest.send_bw && rxDepth != null ? rxDepth : 0,
                postList != null ? postList : 1,
                test == PerfTest.read_bw && outstandingReads != null ? outstandingReads : 0);
    }

    /** The depths and post list given for the bandwidth rows, for the header; empty if none. */
    private String depths() {
        return (txDepth != null ? "; TX depth " + txDepth : "") + (rxDepth != null ? "; RX depth " + rxDepth : "")
                + (postList != null && postList > 1 ? "; post list " + postList : "")
                + (outstandingReads != null ? "; outstanding Reads " + outstandingReads : "");
    }

    /** A row's depths in JSON (each with a trailing comma), where the run set them. */
    private static String depthsJson(PerfParameters run) {
        return (run.depth() > 0 ? "\"tx_depth\":" + run.depth() + "," : "")
                + (run.receiveDepth() > 0 ? "\"rx_depth\":" + run.receiveDepth() + "," : "")
                + (run.postList() > 1 ? "\"post_list\":" + run.postList() + "," : "")
                + (run.outstandingReads() > 0 ? "\"outs\":" + run.outstandingReads() + "," : "");
    }

    private void printPerf(PrintWriter out, List<PerfRow> rows) {
        ResultTable table = new ResultTable("test", "socket", "bytes", "lat p50[usec]", "lat p99[usec]",
                "BW average[MB/sec]", "ratio of", "ratio [95% CI]", "so", "p99 ratio [95% CI]", "compared with");
        for (PerfRow perfRow : rows) {
            Contender contender = perfRow.contender();
            Row<PerfResult> row = perfRow.row();
            double p50 = row.median(r -> r.latency().p50()) / 1e3;
            double p99 = row.median(r -> r.latency().p99()) / 1e3;
            double bandwidth = row.median(PerfResult::bwAverageMBps);
            RoundRatio ratio = row.ratio();
            boolean latency = contender.test().latency();
            String verdict = ratio.verdict(!latency, row.isBaseline());
            // The tail, round by round as the median: a latency row's p99 against its baseline's.
            RoundRatio tail = latency ? row.ratio(r -> r.latency().p99()) : null;
            if (json) {
                out.println(Units.format("{\"test\":\"%s\",\"mode\":\"%s\",\"socket\":\"%s\",\"bytes\":%d,"
                                + "\"iterations\":%d,\"bw_MBps\":%.2f,\"lat_us_p50\":%.2f,\"lat_us_p99\":%.2f,%s,"
                                + "\"ratio_of\":\"%s\",\"verdict\":\"%s\",%s\"compared_with\":\"%s\",%s\"rounds\":%d}",
                        contender.test(), contender.mode(), contender.socket(), perfRow.run().size(),
                        perfRow.run().iterations(), bandwidth, p50, p99, ratio.json(), latency ? "lat_p50" : "bw_average",
                        verdict, tail != null ? tail.json("p99_") + "," : "", row.comparedWith,
                        depthsJson(perfRow.run()), rounds));
            } else {
                table.add(contender.test().toString(), contender.socket(), String.valueOf(perfRow.run().size()),
                        Units.format("%.2f", p50), Units.format("%.2f", p99), Units.format("%.2f", bandwidth),
                        latency ? "lat p50" : "BW", ratio.cell(), verdict, tail != null ? tail.cell() : "-",
                        row.comparedWith);
            }
        }
        if (!json) {
            table.print(out);
        }
    }

    /** A many-connections row: plain or IWARP_MODE (negotiated on first use or before accept), on platform or virtual threads. */
    private record ManyRow(ManyConnections.Sockets sockets, ManyConnections.Threads threads,
                           Row<ManyConnections.Result> row) {
        String socket() {
            return sockets.description();
        }
    }

    /** Plain first on each kind of thread: the IWARP_MODE row's baseline, on the same kind. */
    private List<ManyRow> manyRows() {
        List<ManyRow> rows = new ArrayList<>();
        for (ManyConnections.Threads threads : ManyConnections.Threads.values()) {
            if (threads == ManyConnections.Threads.virtual && !VirtualThreads.available()) {
                continue;
            }
            Row<ManyConnections.Result> baseline = null;
            for (ManyConnections.Sockets sockets : ManyConnections.Sockets.values()) {
                Row<ManyConnections.Result> row = new Row<>(
                        () -> ManyConnections.run(sockets, threads, connections, connectionRoundTrips, MANY_SIZE),
                        ManyConnections.Result::totalNanos, baseline,
                        "plain, " + threads + " threads");
                rows.add(new ManyRow(sockets, threads, row));
                baseline = sockets.iwarp() ? baseline : row;
            }
        }
        return rows;
    }

    private void printMany(PrintWriter out, List<ManyRow> rows) {
        ResultTable table = new ResultTable("threads", "socket", "setup[ms]", "ratio [95% CI]", "round trips[ms]",
                "ratio [95% CI]", "total[ms]", "ratio [95% CI]", "so", "compared with");
        for (ManyRow manyRow : rows) {
            Row<ManyConnections.Result> row = manyRow.row();
            double setup = row.median(r -> r.setupNanos() / 1e6);
            double roundTrips = row.median(r -> r.roundTripNanos() / 1e6);
            double total = row.median(r -> r.totalNanos() / 1e6);
            RoundRatio ratio = row.ratio();
            // Each phase's own ratio too: the round trips are held to plain TCP's apart from
            // the setup (negotiation, buffers), which is measured on its own.
            RoundRatio setupRatio = row.ratio(r -> r.setupNanos());
            RoundRatio roundTripsRatio = row.ratio(r -> r.roundTripNanos());
            if (json) {
                out.println(Units.format("{\"test\":\"many_rr\",\"mode\":\"%s\",\"threads\":\"%s\",\"socket\":\"%s\","
                                + "\"connections\":%d,\"round_trips\":%d,\"bytes\":%d,\"setup_ms\":%.2f,"
                                + "\"round_trips_ms\":%.2f,\"total_ms\":%.2f,%s,%s,%s,\"compared_with\":\"%s\",\"rounds\":%d}",
                        manyRow.sockets().iwarp() ? PerfMode.iwarp : PerfMode.plain, manyRow.threads(), manyRow.socket(),
                        connections, connectionRoundTrips, MANY_SIZE, setup, roundTrips, total, ratio.json(),
                        setupRatio.json("setup_"), roundTripsRatio.json("round_trips_"), row.comparedWith, rounds));
            } else {
                table.add(manyRow.threads().toString(), manyRow.socket(), Units.format("%.1f", setup),
                        setupRatio.cell(), Units.format("%.1f", roundTrips), roundTripsRatio.cell(),
                        Units.format("%.1f", total), ratio.cell(), ratio.verdict(false, row.isBaseline()),
                        row.comparedWith);
            }
        }
        if (json) {
            if (!VirtualThreads.available()) {
                out.println("{\"test\":\"many_rr\",\"threads\":\"virtual\",\"skipped\":\""
                        + VirtualThreads.unavailableReason() + "\"}");
            }
            return;
        }
        out.println();
        out.println("many connections: " + connections + " at once, " + connectionRoundTrips + " round trips of "
                + MANY_SIZE + " B each, a thread per connection on each end; setup = connect (+ IWARP_MODE switch),"
                + " wall clock; total = setup + round trips; each ratio is that column's against plain's");
        table.print(out);
        if (!VirtualThreads.available()) {
            out.println("virtual threads: skipped, " + VirtualThreads.unavailableReason());
        }
    }

    /** A file row: {@code file get} by a method. */
    private record FileRow(FileMethod method, String socket, Row<FileReceiver.Outcome> row) {
    }

    /** transferTo first: the baseline. */
    private List<FileRow> fileRows(FileCompare files) {
        List<FileRow> rows = new ArrayList<>();
        Row<FileReceiver.Outcome> baseline = null;
        for (FileMethod method : List.of(FileMethod.transferTo, FileMethod.write, FileMethod.read)) {
            Row<FileReceiver.Outcome> row = new Row<>(() -> files.get(method),
                    o -> o.bytes() / (o.transferNanos() / 1e9) / 1e6, baseline, "file get by transferTo (sendfile)");
            rows.add(new FileRow(method, method.plainTcpOnly() ? "java.nio SocketChannel, sendfile"
                    : method == FileMethod.write ? "IWARP_MODE, RDMA Write" : "IWARP_MODE, RDMA Read", row));
            baseline = baseline == null ? row : baseline;
        }
        return rows;
    }

    private void printFiles(PrintWriter out, List<FileRow> rows) {
        ResultTable table = new ResultTable("method", "socket", "bytes", "transfer[s]", "MB/sec", "ratio [95% CI]",
                "so", "compared with");
        for (FileRow fileRow : rows) {
            Row<FileReceiver.Outcome> row = fileRow.row();
            double seconds = row.median(o -> o.transferNanos() / 1e9);
            double rate = row.median(row.figure);
            RoundRatio ratio = row.ratio();
            if (json) {
                out.println(Units.format("{\"test\":\"file_get\",\"method\":\"%s\",\"mode\":\"%s\",\"socket\":\"%s\","
                                + "\"bytes\":%d,\"transfer_s\":%.3f,\"MBps\":%.2f,%s,\"compared_with\":\"%s\",\"rounds\":%d}",
                        fileRow.method(), fileRow.method().plainTcpOnly() ? PerfMode.plain : PerfMode.iwarp,
                        fileRow.socket(), fileSize, seconds, rate, ratio.json(), row.comparedWith, rounds));
            } else {
                table.add(fileRow.method().toString(), fileRow.socket(), String.valueOf(fileSize),
                        Units.format("%.3f", seconds), Units.format("%.2f", rate), ratio.cell(),
                        ratio.verdict(true, row.isBaseline()), row.comparedWith);
            }
        }
        if (json) {
            return;
        }
        out.println();
        out.println("file get of " + Units.bytes(fileSize) + " (random bytes, a temporary file), loopback; the transfer"
                + " alone is timed (not the SHA-256 check); MB/sec: higher is better");
        table.print(out);
    }

    /** Binds the server to loopback and serves every connection on its own thread, until it closes. */
    private static Endpoint serveInBackground(ServerSocket server) throws IOException {
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Background.serveEachConnection(server, "perf-compare-server", PerfServer::serve);
        return new Endpoint(InetAddress.getLoopbackAddress().getHostAddress(), server.getLocalPort());
    }
}
