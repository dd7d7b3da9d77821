package io.extsock.examples.perf;

import picocli.CommandLine.Option;

/**
 * perftest's options that mean nothing over a socket. They are accepted (hidden from --help)
 * only so that a perftest user's command line gets one line saying why the option does not
 * apply and what comes nearest, instead of "Unknown option". The values perftest uses by
 * default and extsock does anyway ({@code -q 1}, {@code -c RC}) are accepted.
 */
final class PerftestOptions {

    @Option(names = {"-d", "--ib-dev"}, hidden = true, paramLabel = "DEV")
    String device;

    @Option(names = {"-i", "--ib-port"}, hidden = true, paramLabel = "PORT")
    String ibPort;

    @Option(names = {"-x", "--gid-index"}, hidden = true, paramLabel = "INDEX")
    String gidIndex;

    @Option(names = {"-F", "--CPU-freq"}, hidden = true)
    boolean cpuFrequency;

    @Option(names = {"-q", "--qp"}, hidden = true, paramLabel = "N")
    String queuePairs;

    @Option(names = {"-c", "--connection"}, hidden = true, paramLabel = "TYPE")
    String connectionType;

    @Option(names = {"-R", "--rdma_cm"}, hidden = true)
    boolean rdmaCm;

    @Option(names = "--cpu_util", hidden = true)
    boolean cpuUtil;

    @Option(names = {"-m", "--mtu"}, hidden = true, paramLabel = "MTU")
    String mtu;

    @Option(names = {"-I", "--inline_size"}, hidden = true, paramLabel = "BYTES")
    String inlineSize;

    @Option(names = {"-e", "--events"}, hidden = true)
    boolean events;

    @Option(names = {"-u", "--qp-timeout"}, hidden = true, paramLabel = "TIMEOUT")
    String qpTimeout;

    @Option(names = {"-S", "--sl"}, hidden = true, paramLabel = "SL")
    String serviceLevel;

    @Option(names = {"-C", "--report-cycles"}, hidden = true)
    boolean reportCycles;

    /** What the first option given that does not apply is refused with, or null if none was given. */
    String refusal() {
        if (device != null) {
            return "-d/--ib-dev: extsock has no device, it runs over the socket: drop it";
        }
        if (ibPort != null) {
            return "-i/--ib-port: extsock has no adapter port, it runs over a TCP connection: drop it "
                    + "(the server's TCP port is -p/--port)";
        }
        if (gidIndex != null) {
            return "-x/--gid-index: extsock has no GID table, it reaches the server by host and TCP port: drop it "
                    + "(name the server as SERVER or --host)";
        }
        if (cpuFrequency) {
            return "-F/--CPU-freq: extsock times with System.nanoTime, not CPU cycles, so frequency scaling cannot "
                    + "skew its clock: drop it";
        }
        if (queuePairs != null && !queuePairs.equals("1")) {
            return "-q/--qp: one connection is one queue pair in extsock: drop it (for more, run several perf clients "
                    + "at once: the server serves each)";
        }
        if (connectionType != null && !connectionType.equalsIgnoreCase("RC")) {
            return "-c/--connection: iWARP runs over TCP, so every extsock connection is reliable (RC); "
                    + connectionType + " does not exist here: drop it";
        }
        if (rdmaCm) {
            return "-R/--rdma_cm: extsock always connects the way rdma_cm does for iWARP (TCP, then the MPA "
                    + "exchange): drop it";
        }
        if (cpuUtil) {
            return "--cpu_util: extsock perf does not sample CPU use: drop it (run the client under 'time' or "
                    + "'perf stat')";
        }
        if (mtu != null) {
            return "-m/--mtu: extsock sizes its frames to the TCP path (one segment: 1448 B on Ethernet, 65484 on "
                    + "loopback; IwarpOptions.MAX_FPDU_SIZE in the API): drop it";
        }
        if (inlineSize != null) {
            return "-I/--inline_size: extsock has no inline Sends (there is no adapter to hand descriptors to): "
                    + "drop it";
        }
        if (events) {
            return "-e/--events: extsock perf already waits for completions (CompletionQueue.take) instead of "
                    + "spinning on the queue: drop it";
        }
        if (qpTimeout != null) {
            return "-u/--qp-timeout: retransmission is TCP's in extsock (its retransmission timeout is the kernel's): "
                    + "drop it (--connect-timeout and --mpa-timeout bound the setup)";
        }
        if (serviceLevel != null) {
            return "-S/--sl: extsock runs over TCP/IP, which has no InfiniBand service levels: drop it";
        }
        if (reportCycles) {
            return "-C/--report-cycles: extsock reports microseconds (System.nanoTime has no cycle counter): drop it";
        }
        return null;
    }
}
