package io.extsock.examples.perf;

import io.extsock.examples.cli.ConnectionOptions;
import io.extsock.examples.cli.SizeConverter;
import io.extsock.examples.cli.Units;
import io.extsock.verbs.IwarpConnection;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code extsock perf client TEST}: runs a test against a perf server and prints perftest's table. */
@Command(name = "client", description = "Runs one of perftest's tests against an extsock perf server and prints perftest's table "
                + "(or JSON, one object per line).",
        footer = "%nperftest's options that do not apply over a socket (-d, -i, -x, -F, -q, -c, -R, --cpu_util, -m, -I, -e, "
                + "-u, -S, -C) are refused, each with one line saying why and what comes nearest.")
final class PerfClientCommand implements Callable<Integer> {

    /** Largest size of -a, as perftest's. */
    static final int ALL_SIZES_MAX = 8 << 20;
    /** Default iterations, as perftest's latency tests. */
    static final long DEFAULT_ITERATIONS = 1000;
    /** Without --iters, no size moves more than this: large messages would take minutes on two cores. */
    static final long DEFAULT_BYTES_PER_SIZE = 256L << 20;
    /** Largest -t: the engine's send queue, which refuses a request beyond it. */
    static final int MAX_TX_DEPTH = IwarpConnection.SEND_QUEUE_DEPTH;

    /**
     * Why -t/--tx-depth cannot be {@code depth}, or null if it can: checked by perf client's and
     * perf compare's command lines and again by the server.
     */
    static String txDepthProblem(int depth, boolean duplexSends) {
        if (duplexSends && depth > DuplexSendPerf.MAX_DATA_DEPTH && depth <= MAX_TX_DEPTH) {
            return "-t/--tx-depth must be from 1 to " + DuplexSendPerf.MAX_DATA_DEPTH + " with send_bw -b (the send queue's "
                    + MAX_TX_DEPTH + " less the " + DuplexSendPerf.CONTROL_SLOTS + " its control messages may take): " + depth;
        }
        return depth < 1 || depth > MAX_TX_DEPTH ? "-t/--tx-depth must be from 1 to " + MAX_TX_DEPTH
                + " (the engine's send queue): " + depth : null;
    }

    /** Largest -o: Read Requests the responder keeps until answered, each a few dozen bytes. */
    static final int MAX_OUTSTANDING_READS = 1024;

    /** Why -o/--outs cannot be {@code outs}, or null if it can: checked where it is given and by the server. */
    static String outstandingReadsProblem(int outs) {
        return outs < 1 || outs > MAX_OUTSTANDING_READS
                ? "-o/--outs must be from 1 to " + MAX_OUTSTANDING_READS + ": " + outs : null;
    }

    /**
     * Why the run's post list or outstanding Reads cannot be, or null if they can: checked by
     * perf client's and perf compare's command lines, and again by the server.
     */
    static String listAndReadsProblem(PerfParameters run) {
        String problem = postListProblem(run);
        if (problem != null || run.outstandingReads() == 0) {  // 0: not given, the engine's default
            return problem;
        }
        if (run.test() != PerfTest.read_bw && run.test() != PerfTest.read_lat) {
            return "-o/--outs: only RDMA Reads are outstanding, and " + run.test() + " makes none: drop it";
        }
        return outstandingReadsProblem(run.outstandingReads());
    }

    /** Largest -l: the engine's send queue holds 512 requests. */
    static final int MAX_POST_LIST = 512;

    /**
     * Why the run's -l/--post_list cannot be, or null if it can: checked by perf client's and
     * perf compare's command lines and again by the server (a tcp_bw list is one buffer of that
     * many messages).
     */
    static String postListProblem(PerfParameters run) {
        int list = run.postList();
        if (list < 1 || list > MAX_POST_LIST) {
            return "-l/--post_list must be from 1 to " + MAX_POST_LIST + ": " + list;
        }
        if (list == 1) {
            return null;
        }
        PerfTest test = run.test();
        if (test.latency()) {
            return "-l/--post_list: " + test + " is a latency test and has one message in flight: drop it";
        }
        if (test == PerfTest.tcp_bw) {
            long bytes = (long) list * run.size();
            return bytes > PerfServer.MAX_SIZE ? "-l/--post_list " + list + " messages of " + Units.bytes(run.size())
                    + " make writes of " + Units.bytes(bytes) + ", more than " + Units.bytes(PerfServer.MAX_SIZE)
                    + ": write fewer at a time, or smaller messages" : null;
        }
        if (test == PerfTest.send_bw) {
            if (run.bidirectional()) {
                return "-l/--post_list: send_bw -b spends its credits on data and control messages one at a time, so "
                        + "it posts no lists: drop -l, or -b";
            }
            int receives = SendPerf.receivesPosted(run);
            if (list > receives / 2) {
                return "-l/--post_list " + list + " is more than half the " + receives + " Receives the server posts at "
                        + Units.bytes(run.size()) + ", which are the sender's credits (a list goes once credits for all "
                        + "of it came back): post shorter lists, or raise -r/--rx-depth";
            }
        }
        int sendBwDepth = run.bidirectional() ? DuplexSendPerf.MAX_DATA_DEPTH : SendPerf.DEPTH;
        int depth = run.depthOr(test == PerfTest.send_bw ? sendBwDepth
                : test == PerfTest.write_bw ? WritePerf.DEPTH : ReadPerf.DEPTH);
        return list > depth ? "-l/--post_list " + list + " is more than the TX depth " + depth
                + " (a list is posted once all of it fits in flight): post shorter lists, or raise -t/--tx-depth" : null;
    }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "TEST",
            description = "send_lat, send_bw, write_lat, write_bw, read_lat, read_bw (IWARP_MODE), tcp_lat, tcp_bw, "
                    + "tcp_rr (sockets, see --mode; tcp_rr reports the whole round trip, tcp_lat half of it). "
                    + "qperf's order, SERVER then TEST, is taken too.")
    String firstArgument;

    @Parameters(index = "1", arity = "0..1", paramLabel = "SERVER",
            description = "The server's host, where perftest takes it (the same as --host; default: localhost).")
    String secondArgument;

    /** The test and the server host, from the two positional arguments in either order. */
    PerfTest test;
    String server;

    @Mixin
    ConnectionOptions connection;

    @Mixin
    PerftestOptions perftest;

    @Option(names = {"-s", "--size"}, paramLabel = "BYTES", converter = SizeConverter.class,
            description = "Message size (default: 2 for latency tests, 65536 for bandwidth tests, as perftest; "
                    + "suffixes K, M).")
    Long size;

    @Option(names = {"-a", "--all"}, description = "Run every size from 2 B to 8 MiB (powers of two).")
    boolean allSizes;

    @ArgGroup(exclusive = true)
    Length length = new Length();

    /** How long each size runs: iterations or seconds. */
    static final class Length {
        @Option(names = {"-n", "--iters"}, paramLabel = "N",
                description = "Iterations per size (default: 1000, fewer for large messages: at most 256 MiB a size).")
        Long iterations;

        @Option(names = {"-D", "--duration"}, paramLabel = "SECONDS", description = "Run each size for this long instead.")
        Integer durationSeconds;
    }

    @Option(names = "--mode", paramLabel = "MODE",
            description = "tcp_lat, tcp_rr and tcp_bw only: plain (java.net.Socket, the default), passthrough (ExtendedSocket) "
                    + "or iwarp (ExtendedSocket in IWARP_MODE, the stream over Sends).")
    PerfMode mode;

    @Option(names = "--json", description = "One JSON object per line instead of the table.")
    boolean json;

    @Option(names = "--report_gbits",
            description = "Bandwidth columns in Gb/s (10^9 bits per second) instead of MB/sec, as perftest's; JSON keeps MB/s.")
    boolean reportGbits;

    @Option(names = {"-b", "--bidirectional"},
            description = "Bandwidth tests (send_bw, write_bw, read_bw, tcp_bw): both ends send at once; the table shows "
                    + "the sum of both directions, as perftest's -b.")
    boolean bidirectional;

    @Option(names = {"-t", "--tx-depth"}, paramLabel = "N",
            description = "send_bw, write_bw, read_bw: requests in flight on each sending end, at most the engine's send "
                    + "queue of 512 (default: 128 for write_bw and read_bw; send_bw's Sends are bounded by the receiver's "
                    + "credits and the send queue).")
    Integer txDepth;

    @Option(names = {"-r", "--rx-depth"}, paramLabel = "N",
            description = "send_bw: Receives the receiving end keeps posted, which are the sender's credits (default: up "
                    + "to 128, at most 64 MiB of them; with -b each end posts them; at most 512, the engine's receive "
                    + "queue). On a kernel whose TCP paces by what "
                    + "is in flight (BBR), this moves the rate: see docs/benchmarks.md.")
    Integer rxDepth;

    @Option(names = {"-l", "--post_list"}, paramLabel = "N",
            description = "Bandwidth tests: messages posted at once, as perftest's --post_list: send_bw, write_bw and "
                    + "read_bw post lists of N requests (IwarpConnection.post(List): one gathering write for the "
                    + "list), tcp_bw writes N messages with each write, so plain TCP gets the same batching "
                    + "(default: 1).")
    Integer postList;

    @Option(names = {"-o", "--outs"}, paramLabel = "N",
            description = "read_bw, read_lat: RDMA Reads that may be outstanding at once, as perftest's --outs: both "
                    + "ends ask for N as ORD and IRD (default: the engine's 16).")
    Integer outstandingReads;

    @Override
    public Integer call() throws Exception {
        readPositionalArguments();
        checkPerftestHabits();
        PerfMode runMode = checkMode();
        List<Integer> sizes = sizes();
        checkRxDepth(sizes);
        checkLength();
        connection.checkClient();
        String outsProblem = outstandingReads != null ? outstandingReadsProblem(outstandingReads) : null;
        if (outsProblem != null) {
            throw new ParameterException(spec.commandLine(), outsProblem);
        }
        List<PerfParameters> runs = new ArrayList<>();
        for (int messageSize : sizes) {
            PerfParameters run = new PerfParameters(test, runMode, messageSize, iterations(messageSize),
                    length.durationSeconds != null ? length.durationSeconds * 1000L : 0, connection.crc,
                    connection.markers, bidirectional, txDepth != null ? txDepth : 0, rxDepth != null ? rxDepth : 0,
                    postList != null ? postList : 1, outstandingReads != null ? outstandingReads : 0);
            String problem = listAndReadsProblem(run);  // before any run: -a's largest sizes may refuse it
            if (problem != null) {
                throw new ParameterException(spec.commandLine(), problem);
            }
            runs.add(run);
        }
        PrintWriter out = spec.commandLine().getOut();
        PerfReport report = new PerfReport(out, json, reportGbits, bidirectional);
        // The first run before the header, as perftest connects first: a refused connection is the
        // only line, and the header says what the negotiation agreed on.
        PerfClient.FirstRun first = PerfClient.runFirst(connection.endpoint, runs.get(0));
        report.header(test, details(runMode, first.agreed()));
        report.row(first.result());
        for (PerfParameters run : runs.subList(1, runs.size())) {
            report.row(PerfClient.run(connection.endpoint, run));
        }
        report.footer();
        return 0;
    }

    /** TEST [SERVER] as perftest, or SERVER TEST as qperf: whichever argument names a test is the test. */
    private void readPositionalArguments() {
        PerfTest named = PerfTest.named(firstArgument);
        if (named != null) {
            test = named;
            server = secondArgument;
            return;
        }
        PerfTest second = secondArgument != null ? PerfTest.named(secondArgument) : null;
        if (second != null) {
            test = second;
            server = firstArgument;
            return;
        }
        throw new ParameterException(spec.commandLine(), "no test named " + (secondArgument != null
                ? "'" + firstArgument + "' or '" + secondArgument + "'" : "'" + firstArgument + "'")
                + ": the test is one of " + PerfTest.names() + " (perf client TEST [SERVER], or qperf's SERVER TEST)");
    }

    /** The server as perftest takes it, and perftest's options: each applies, or is refused in one line. */
    private void checkPerftestHabits() {
        String refusal = perftest.refusal();
        if (refusal != null) {
            throw new ParameterException(spec.commandLine(), refusal);
        }
        if (server != null) {
            String host = connection.endpoint.host;
            if (host != null && !host.equals(server)) {
                throw new ParameterException(spec.commandLine(), "two servers: " + server + " and --host " + host
                        + ": give one");
            }
            connection.endpoint.host = server;
        }
        if (bidirectional && test.latency()) {
            throw new ParameterException(spec.commandLine(), "-b/--bidirectional: " + test + " is a latency test (one "
                    + "message at a time); only the bandwidth tests send both ways at once: drop -b, or run "
                    + (test == PerfTest.tcp_rr ? "tcp_bw" : test.name().replace("_lat", "_bw")) + " -b");
        }
        if (txDepth != null) {
            if (test.latency()) {
                throw new ParameterException(spec.commandLine(), "-t/--tx-depth: " + test + " is a latency test and "
                        + "keeps one request in flight: drop it");
            }
            if (!test.rdma()) {
                throw new ParameterException(spec.commandLine(), "-t/--tx-depth: " + test + " writes to the socket's "
                        + "stream, which has no queue of requests: drop it (--size sets each write)");
            }
            String problem = txDepthProblem(txDepth, test == PerfTest.send_bw && bidirectional);
            if (problem != null) {
                throw new ParameterException(spec.commandLine(), problem);
            }
        }
    }

    /** -r/--rx-depth applies to send_bw only, and its Receives must fit at the largest size. */
    private void checkRxDepth(List<Integer> sizes) {
        if (rxDepth == null) {
            return;
        }
        String refusal = switch (test) {
            case send_bw -> SendPerf.receiveDepthProblem(rxDepth, Collections.max(sizes), bidirectional);
            case write_bw, read_bw -> "-r/--rx-depth: " + test + " is one-sided: the " + (test == PerfTest.write_bw
                    ? "target" : "source") + " of its " + (test == PerfTest.write_bw ? "Writes" : "Reads")
                    + " posts no Receives: drop it (-t/--tx-depth sets the requests in flight)";
            case tcp_bw -> "-r/--rx-depth: tcp_bw writes to the socket's stream, whose receiving end posts its own "
                    + "buffers: drop it";
            default -> "-r/--rx-depth: " + test + " is a latency test and has one message in flight: drop it";
        };
        if (refusal != null) {
            throw new ParameterException(spec.commandLine(), refusal);
        }
    }

    private PerfMode checkMode() {
        if (test.rdma()) {
            if (mode != null && mode != PerfMode.iwarp) {
                throw new ParameterException(spec.commandLine(),
                        test + " uses the extended API and runs in IWARP_MODE only: drop --mode " + mode);
            }
            return PerfMode.iwarp;
        }
        return mode != null ? mode : PerfMode.plain;
    }

    private List<Integer> sizes() {
        if (allSizes && size != null) {
            throw new ParameterException(spec.commandLine(), "-a runs every size: drop --size");
        }
        List<Integer> sizes = new ArrayList<>();
        if (allSizes) {
            for (int s = 2; s <= ALL_SIZES_MAX; s <<= 1) {
                sizes.add(s);
            }
            return sizes;
        }
        long chosen = size != null ? size : test.latency() ? 2 : 65536;
        int minimum = test == PerfTest.write_lat ? 2 : 1;
        if (chosen < minimum || chosen > PerfServer.MAX_SIZE) {
            throw new ParameterException(spec.commandLine(), "--size must be from " + minimum + " B to 64 MiB"
                    + (minimum == 2 ? " (write_lat's message holds a flag and a sequence byte)" : "") + ": " + chosen);
        }
        sizes.add((int) chosen);
        return sizes;
    }

    private void checkLength() {
        if (length.iterations != null && length.iterations < 1) {
            throw new ParameterException(spec.commandLine(), "--iters must be at least 1: " + length.iterations);
        }
        if (length.durationSeconds != null && length.durationSeconds < 1) {
            throw new ParameterException(spec.commandLine(), "--duration must be at least 1 s: " + length.durationSeconds);
        }
    }

    private long iterations(int messageSize) {
        if (length.durationSeconds != null) {
            return 0;
        }
        if (length.iterations != null) {
            return length.iterations;
        }
        return Math.min(DEFAULT_ITERATIONS, Math.max(10, DEFAULT_BYTES_PER_SIZE / messageSize));
    }

    private String details(PerfMode runMode, String agreed) {
        String socket = runMode.description() + (agreed != null ? ", " + agreed : "");
        String depth = switch (test) {
            case write_bw -> String.valueOf(txDepth != null ? txDepth : WritePerf.DEPTH);
            case read_bw -> (txDepth != null ? txDepth : ReadPerf.DEPTH) + "\n Outstand reads  : "
                    + (outstandingReads != null ? outstandingReads : "the engine's default (IwarpOptions.ORD)");
            case send_bw -> (txDepth != null ? txDepth + ", and " : "") + "credits: the "
                    + (bidirectional ? "peer's" : "server's") + " posted Receives\n RX depth        : "
                    + (rxDepth != null ? rxDepth : "up to 128, at most 64 MiB of them");
            default -> "1";
        };
        return "Server          : " + connection.peer() + "\n Socket          : " + socket
                + "\n TX depth        : " + depth
                + (postList != null && postList > 1 ? "\n Post list       : " + postList
                + (test == PerfTest.tcp_bw ? " messages per write" : " requests per post") : "")
                + (bidirectional ? "\n Bidirectional   : both ends send at once; bandwidths are the sums of both" : "")
                + "\n " + (length.durationSeconds != null ? "Duration        : " + length.durationSeconds + " s per size"
                : "Warm-up         : " + PerfClock.WARM_UP + " iterations per size, not reported");
    }
}
