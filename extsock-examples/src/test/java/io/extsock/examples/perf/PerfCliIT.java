package io.extsock.examples.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.examples.cli.Cli;
import io.extsock.examples.cli.CommandLineErrorsIT;
import io.extsock.examples.cli.LatencyStats;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code extsock perf client} typed as a perftest user types it, each command a separate process
 * against one {@code perf server} process: the server as a positional argument, {@code -p},
 * {@code --report_gbits}, {@code -b} on every bandwidth test, {@code -t}, and each perftest option
 * that does not apply refused in one line with exit code 2.
 */
@Timeout(300)
class PerfCliIT {

    private static final String LINE = "-".repeat(87);
    private static final String BW_HEADER_GBITS =
            " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]";
    /** perftest's REPORT_FMT. */
    private static final Pattern BW_ROW = Pattern.compile(
            " (\\d+) *    (\\d+) *       (\\d+\\.\\d{2}) *            (\\d+\\.\\d{2}) *\t\t   (\\d+\\.\\d{6}) *");
    /** perftest's REPORT_FMT_EXT, which --report_gbits uses below 0.1 Gb/s. */
    private static final Pattern BW_ROW_EXT = Pattern.compile(
            " (\\d+) *    (\\d+)           (\\d+\\.\\d{6}) *            (\\d+\\.\\d{6}) *            (\\d+\\.\\d{6}) *");
    private static final Pattern JSON_BW = Pattern.compile("\\{\"test\":\"(\\w+)\",\"mode\":\"(\\w+)\",\"bytes\":(\\d+),"
            + "\"iterations\":(\\d+),\"bw_MBps\":([\\d.]+),\"bw_peak_MBps\":([\\d.]+),.*}");

    private static Cli server;
    private static String port;

    /** The server too takes perftest's -p. */
    @BeforeAll
    static void startServer() throws Exception {
        server = Cli.server("perf", "server", "-p", "0");
        port = String.valueOf(server.port());
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void serverAsPositionalArgumentAndShortPort() throws Exception {
        for (String host : List.of("localhost", "127.0.0.1")) {
            Cli client = Cli.run("perf", "client", "write_bw", host, "-p", port, "-n", "200");
            assertEquals(0, client.waitFor(), client.transcript());
            assertTrue(client.out().contains(" Server          : " + host + ":" + port + "\n"), client.transcript());
            // what the negotiation agreed on: the server asks for CRC whatever the client's --no-crc would say
            assertTrue(client.out().matches("(?s).* Socket          : [^\n]*, CRC on, markers off\n.*"), client.transcript());
            assertTrue(bandwidthRow(client, false).matches(), client.transcript());
            assertEquals("", client.err(), client.transcript());
        }
        Cli same = Cli.run("perf", "client", "tcp_lat", "127.0.0.1", "--host", "127.0.0.1", "--port", port,
                "-n", "100");
        assertEquals(0, same.waitFor(), same.transcript());
        Cli.run("perf", "client", "tcp_lat", "127.0.0.1", "--host", "localhost", "-p", port)
                .assertUserError(2, "perf", "two servers: 127.0.0.1 and --host localhost: give one");
        Cli qperfOrder = Cli.run("perf", "client", "127.0.0.1", "tcp_lat", "-p", port, "-n", "100");
        assertEquals(0, qperfOrder.waitFor(), qperfOrder.transcript());
        assertTrue(qperfOrder.out().contains(" Server          : 127.0.0.1:" + port + "\n"), qperfOrder.transcript());
        assertTrue(qperfOrder.out().contains("TCP Latency Test"), qperfOrder.transcript());
        int refused = CommandLineErrorsIT.freePort();
        Cli.run("perf", "client", "tcp_lat", "127.0.0.1", "-p", "" + refused)
                .assertUserError(1, "perf", "connection refused: 127.0.0.1:" + refused);
    }

    /** Gb/s is perftest's: 10^9 bits per second, so the MB/s of the JSON times 8 / 1000 on the same run's figures. */
    @Test
    void reportGbitsLabelsAndScalesTheBandwidthColumns() throws Exception {
        Cli client = Cli.run("perf", "client", "write_bw", "localhost", "-p", port, "--report_gbits", "-s", "1M",
                "-n", "200");
        assertEquals(0, client.waitFor(), client.transcript());
        List<String> lines = client.out().lines().toList();
        int header = lines.indexOf(BW_HEADER_GBITS);
        assertTrue(header > 1, "perftest's Gb/sec header\n" + client.transcript());
        Matcher row = bandwidthRow(client, true);
        assertTrue(row.matches(), client.transcript());
        assertEquals("1048576", row.group(1));
        assertTrue(Double.parseDouble(row.group(4)) > 0, client.transcript());
        assertTrue(!client.out().contains("MB/sec"), client.transcript());

        // the conversion, where the row is made: 2500 MB/s are 20 Gb/s; below 0.1 Gb/s, six decimals
        LatencyStats one = LatencyStats.of(new long[] {1000}, 1);
        Matcher fast = BW_ROW.matcher(PerfReport.table(
                new PerfResult(PerfTest.write_bw, PerfMode.iwarp, 65536, 1000, 2500.0, 1250.0, 0.019073, one), true));
        assertTrue(fast.matches(), fast.toString());
        assertEquals(List.of("20.00", "10.00", "0.019073"), List.of(fast.group(3), fast.group(4), fast.group(5)));
        Matcher slow = BW_ROW_EXT.matcher(PerfReport.table(
                new PerfResult(PerfTest.send_bw, PerfMode.iwarp, 2, 1000, 5.0, 2.5, 1.25, one), true));
        assertTrue(slow.matches(), slow.toString());
        assertEquals(List.of("0.040000", "0.020000", "1.250000"), List.of(slow.group(3), slow.group(4), slow.group(5)));

        Cli latency = Cli.run("perf", "client", "send_lat", "localhost", "-p", port, "--report_gbits", "-n", "100");
        assertEquals(0, latency.waitFor(), "perftest accepts it on latency tests too: no bandwidth columns there\n"
                + latency.transcript());
    }

    @Test
    void bidirectionalBandwidthOnEveryBandwidthTest() throws Exception {
        for (List<String> run : List.of(List.of("send_bw"), List.of("write_bw"), List.of("read_bw"),
                List.of("tcp_bw", "--mode", "plain"), List.of("tcp_bw", "--mode", "iwarp"))) {
            String test = run.get(0);
            Cli client = clientSucceeds(test, run.subList(1, run.size()), "-b", "-n", "300", "-s", "16K");
            String title = PerfTest.valueOf(test).title().replace(" BW ", " Bidirectional BW ");
            assertEquals("                    " + title, client.out().lines().toList().get(1), client.transcript());
            assertTrue(client.out().contains(" Bidirectional   : both ends send at once"), client.transcript());
            Matcher row = bandwidthRow(client, false);
            assertTrue(row.matches(), client.transcript());
            assertEquals("16384", row.group(1), client.transcript());
            assertEquals("300", row.group(2), client.transcript());
            assertTrue(Double.parseDouble(row.group(4)) > 0, client.transcript());
            assertEquals("", client.err(), client.transcript());
        }
        Cli json = Cli.run("perf", "client", "send_bw", "localhost", "-p", port, "-b", "-a", "-n", "20", "--json");
        assertEquals(0, json.waitFor(), json.transcript());
        List<String> lines = json.out().lines().toList();
        assertEquals(23, lines.size(), "every size from 2 B to 8 MiB, both ways\n" + json.transcript());
        for (String line : lines) {
            Matcher object = JSON_BW.matcher(line);
            assertTrue(object.matches(), line);
            assertTrue(line.endsWith(",\"bidirectional\":true}"), line);
            assertEquals("20", object.group(4), line);
        }
        assertTrue(server.out().contains("ran send_bw (iwarp, 8388608 B, both ways, 8 Receives posted)"), server.transcript());
    }

    /** The sum perftest reports for -b: both ends' bandwidths and message rates; this end's iterations. */
    @Test
    void bidirectionalReportsTheSumOfBothEnds() {
        PerfResult mine = new PerfResult(PerfTest.write_bw, PerfMode.iwarp, 4096, 500, 300.0, 200.0, 0.05,
                LatencyStats.of(new long[] {1000}, 1));
        PerfResult.Figures theirs = new PerfResult(PerfTest.write_bw, PerfMode.iwarp, 4096, 450, 250.0, 150.0, 0.04,
                LatencyStats.of(new long[] {2000}, 1)).figures();
        java.nio.ByteBuffer wire = java.nio.ByteBuffer.wrap(theirs.encoded());
        PerfResult sum = mine.plus(PerfResult.Figures.readFrom(wire));
        assertEquals(500, sum.iterations());
        assertEquals(550.0, sum.bwPeakMBps());
        assertEquals(350.0, sum.bwAverageMBps());
        assertEquals(0.09, sum.msgRateMpps(), 1e-12);
        assertEquals(mine.latency(), sum.latency());
    }

    @Test
    void txDepth() throws Exception {
        for (String test : List.of("write_bw", "read_bw", "send_bw")) {
            Cli client = Cli.run("perf", "client", test, "localhost", "-p", port, "-t", "4", "-n", "300");
            assertEquals(0, client.waitFor(), client.transcript());
            assertTrue(client.out().contains(" TX depth        : 4"), client.transcript());
            assertTrue(bandwidthRow(client, false).matches(), client.transcript());
        }
        Cli.run("perf", "client", "tcp_bw", "-p", port, "-t", "4").assertUserError(2, "perf",
                "-t/--tx-depth: tcp_bw writes to the socket's stream, which has no queue of requests: drop it");
        Cli.run("perf", "client", "read_lat", "-p", port, "-t", "4").assertUserError(2, "perf",
                "-t/--tx-depth: read_lat is a latency test and keeps one request in flight: drop it");
        Cli.run("perf", "client", "write_bw", "-p", port, "-t", "0").assertUserError(2, "perf",
                "-t/--tx-depth must be from 1 to 512 (the engine's send queue): 0");
        Cli.run("perf", "client", "read_bw", "-p", port, "-t", "513").assertUserError(2, "perf",
                "-t/--tx-depth must be from 1 to 512 (the engine's send queue): 513");
        Cli.run("perf", "client", "send_bw", "-p", port, "-t", "497", "-b").assertUserError(2, "perf",
                "-t/--tx-depth must be from 1 to 496 with send_bw -b (the send queue's 512 less the 16 its control "
                        + "messages may take): 497");
    }

    /**
     * The deepest queues the options allow run to their end: as many Writes or Reads in flight as
     * the send queue holds, and as many Receives posted as the receive queue holds, whose credits
     * come back faster than the sender takes its completions (the sender once posted past its
     * send queue there and ended with "send queue full").
     */
    @Test
    void theDeepestQueuesRunToTheirEnd() throws Exception {
        for (List<String> run : List.of(List.of("write_bw", "-t", "512"), List.of("read_bw", "-t", "512"),
                List.of("send_bw", "-r", "512"), List.of("send_bw", "-r", "512", "-t", "512"),
                List.of("send_bw", "-r", "512", "-b"), List.of("send_bw", "-r", "512", "-t", "496", "-b"))) {
            Cli client = clientSucceeds(run.get(0), run.subList(1, run.size()), "-s", "64K", "-n", "3000");
            assertTrue(bandwidthRow(client, false).matches(), client.transcript());
        }
    }

    /**
     * perftest's --post_list: requests posted a list at a time, and tcp_bw's writes of that many
     * messages. 300 messages in lists of 8 end with a list of 4; each run's end checks the peer
     * got every message or byte.
     */
    @Test
    void postList() throws Exception {
        for (List<String> run : List.of(List.of("send_bw"), List.of("write_bw"), List.of("read_bw"),
                List.of("tcp_bw", "--mode", "plain"), List.of("tcp_bw", "--mode", "iwarp"), List.of("write_bw", "-b"),
                List.of("read_bw", "-b"), List.of("tcp_bw", "-b"))) {
            Cli client = clientSucceeds(run.get(0), run.subList(1, run.size()), "-l", "8", "-n", "300", "-s", "4K");
            assertTrue(client.out().contains(" Post list       : 8 " + (run.get(0).equals("tcp_bw")
                    ? "messages per write" : "requests per post") + "\n"), client.transcript());
            Matcher row = bandwidthRow(client, false);
            assertTrue(row.matches(), client.transcript());
            assertEquals("300", row.group(2), client.transcript());
        }
        Cli.run("perf", "client", "send_bw", "-p", port, "-l", "100", "-s", "4K").assertUserError(2, "perf",
                "-l/--post_list 100 is more than half the 128 Receives the server posts at 4.0 KiB");
        Cli.run("perf", "client", "send_bw", "-p", port, "-l", "4", "-b").assertUserError(2, "perf",
                "-l/--post_list: send_bw -b spends its credits on data and control messages one at a time");
        Cli.run("perf", "client", "write_bw", "-p", port, "-l", "200").assertUserError(2, "perf",
                "-l/--post_list 200 is more than the TX depth 128");
        Cli.run("perf", "client", "tcp_lat", "-p", port, "-l", "2").assertUserError(2, "perf",
                "-l/--post_list: tcp_lat is a latency test and has one message in flight: drop it");
        Cli.run("perf", "client", "tcp_bw", "-p", port, "-l", "100", "-s", "1M").assertUserError(2, "perf",
                "-l/--post_list 100 messages of 1.0 MiB make writes of 100.0 MiB, more than 64.0 MiB");
        Cli.run("perf", "client", "write_bw", "-p", port, "-l", "0").assertUserError(2, "perf",
                "-l/--post_list must be from 1 to 512: 0");
    }

    /**
     * perftest's --outs: both ends ask for N as ORD and IRD; the client's read test checks the
     * connection agreed to N (it fails the run otherwise).
     */
    @Test
    void outstandingReads() throws Exception {
        for (List<String> run : List.of(List.of("read_bw", "-o", "64"), List.of("read_bw", "-o", "4", "-b"),
                List.of("read_lat", "-o", "2"))) {
            Cli client = clientSucceeds(run.get(0), run.subList(1, run.size()), "-n", "300", "-s", "4K");
            if (run.get(0).equals("read_bw")) {
                assertTrue(client.out().contains(" Outstand reads  : " + run.get(2) + "\n"), client.transcript());
            }
        }
        Cli.run("perf", "client", "write_bw", "-p", port, "-o", "4").assertUserError(2, "perf",
                "-o/--outs: only RDMA Reads are outstanding, and write_bw makes none: drop it");
        Cli.run("perf", "client", "read_bw", "-p", port, "-o", "0").assertUserError(2, "perf",
                "-o/--outs must be from 1 to 1024: 0");
        Cli.run("perf", "client", "read_bw", "-p", port, "-o", "2000").assertUserError(2, "perf",
                "-o/--outs must be from 1 to 1024: 2000");
    }

    /**
     * perftest's -r: the receiving end of send_bw posts that many Receives, which are the sender's
     * credits. Were the client's count not the server's, the connection would end at the first Send
     * that found no Receive (iWARP has no receiver-not-ready retry).
     */
    @Test
    void rxDepth() throws Exception {
        for (List<String> run : List.of(List.of("-r", "1", "-s", "4K"), List.of("-r", "5", "-s", "64K", "-b"),
                List.of("-r", "300", "-s", "1K", "-t", "16"))) {
            Cli client = clientSucceeds("send_bw", run, "-n", "400");
            String depth = run.get(1);
            assertTrue(client.out().contains(" RX depth        : " + depth + "\n"), client.transcript());
            assertTrue(bandwidthRow(client, false).matches(), client.transcript());
            String size = run.get(3).equals("4K") ? "4096" : run.get(3).equals("64K") ? "65536" : "1024";
            String posted = "ran send_bw (iwarp, " + size + " B" + (run.contains("-b") ? ", both ways" : "") + ", " + depth
                    + " Receives posted)";
            awaitServerLine(posted);
        }
        Cli defaults = Cli.run("perf", "client", "send_bw", "localhost", "-p", port, "-n", "200", "-s", "1M");
        assertEquals(0, defaults.waitFor(), defaults.transcript());
        assertTrue(defaults.out().contains(" RX depth        : up to 128, at most 64 MiB of them\n"), defaults.transcript());
        awaitServerLine("ran send_bw (iwarp, 1048576 B, 64 Receives posted)");

        Cli.run("perf", "client", "write_bw", "-p", port, "-r", "4").assertUserError(2, "perf",
                "-r/--rx-depth: write_bw is one-sided: the target of its Writes posts no Receives: drop it");
        Cli.run("perf", "client", "read_bw", "-p", port, "-r", "4").assertUserError(2, "perf",
                "-r/--rx-depth: read_bw is one-sided: the source of its Reads posts no Receives: drop it");
        Cli.run("perf", "client", "tcp_bw", "-p", port, "-r", "4").assertUserError(2, "perf",
                "-r/--rx-depth: tcp_bw writes to the socket's stream, whose receiving end posts its own buffers");
        Cli.run("perf", "client", "send_lat", "-p", port, "-r", "4").assertUserError(2, "perf",
                "-r/--rx-depth: send_lat is a latency test and has one message in flight: drop it");
        Cli.run("perf", "client", "send_bw", "-p", port, "-r", "0").assertUserError(2, "perf",
                "-r/--rx-depth must be from 1 to 512: 0");
        Cli.run("perf", "client", "send_bw", "-p", port, "-r", "513").assertUserError(2, "perf",
                "-r/--rx-depth must be from 1 to 512: 513");
        Cli.run("perf", "client", "send_bw", "-p", port, "-r", "2", "-b").assertUserError(2, "perf",
                "-r/--rx-depth must be from 3 to 512 with -b");
        Cli.run("perf", "client", "send_bw", "-p", port, "-r", "512", "-s", "4M").assertUserError(2, "perf",
                "-r/--rx-depth 512 Receives of 4.0 MiB would take 2.0 GiB at the receiving end, more than its 1.0 GiB");
    }

    /**
     * Runs {@code perf client TEST localhost -p PORT}, then {@code common}, then {@code options},
     * and fails unless it exits 0.
     */
    private static Cli clientSucceeds(String test, List<String> options, String... common)
            throws java.io.IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("perf", "client", test, "localhost", "-p", port));
        command.addAll(List.of(common));
        command.addAll(options);
        Cli client = Cli.run(command.toArray(String[]::new));
        assertEquals(0, client.waitFor(), client.transcript());
        return client;
    }

    /** The server prints a line per run once the run has ended, which may be just after the client exits. */
    private static void awaitServerLine(String line) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!server.out().contains(line) && System.nanoTime() < deadline) {
            Thread.sleep(20);  // a polling interval
        }
        assertTrue(server.out().contains(line), server.transcript());
    }

    @Test
    void perftestOptionsThatDoNotApplyAreRefusedInOneLine() throws Exception {
        Map<List<String>, String> refusals = new java.util.LinkedHashMap<>();
        refusals.put(List.of("-d", "mlx5_0"), "-d/--ib-dev: extsock has no device, it runs over the socket: drop it");
        refusals.put(List.of("--ib-dev=rxe0"), "-d/--ib-dev: extsock has no device");
        refusals.put(List.of("-i", "1"), "-i/--ib-port: extsock has no adapter port, it runs over a TCP connection: "
                + "drop it (the server's TCP port is -p/--port)");
        refusals.put(List.of("-x", "3"), "-x/--gid-index: extsock has no GID table");
        refusals.put(List.of("-F"), "-F/--CPU-freq: extsock times with System.nanoTime, not CPU cycles");
        refusals.put(List.of("-q", "4"), "-q/--qp: one connection is one queue pair in extsock: drop it");
        refusals.put(List.of("-c", "UD"), "-c/--connection: iWARP runs over TCP, so every extsock connection is "
                + "reliable (RC); UD does not exist here: drop it");
        refusals.put(List.of("-R"), "-R/--rdma_cm: extsock always connects the way rdma_cm does for iWARP");
        refusals.put(List.of("--cpu_util"), "--cpu_util: extsock perf does not sample CPU use: drop it");
        refusals.put(List.of("-m", "4096"), "-m/--mtu: extsock sizes its frames to the TCP path");
        refusals.put(List.of("-I", "64"), "-I/--inline_size: extsock has no inline Sends");
        refusals.put(List.of("-e"), "-e/--events: extsock perf already waits for completions");
        refusals.put(List.of("-u", "14"), "-u/--qp-timeout: retransmission is TCP's in extsock");
        refusals.put(List.of("-S", "1"), "-S/--sl: extsock runs over TCP/IP, which has no InfiniBand service levels");
        refusals.put(List.of("-C"), "-C/--report-cycles: extsock reports microseconds");
        for (Map.Entry<List<String>, String> refusal : refusals.entrySet()) {
            List<String> args = new java.util.ArrayList<>(List.of("perf", "client", "write_bw", "localhost", "-p", port));
            args.addAll(refusal.getKey());
            Cli.run(args.toArray(String[]::new)).assertUserError(2, "perf", refusal.getValue());
        }
        for (String test : List.of("send_lat", "write_lat", "read_lat", "tcp_lat")) {
            Cli.run("perf", "client", test, "localhost", "-p", port, "-b").assertUserError(2, "perf",
                    "-b/--bidirectional: " + test + " is a latency test (one message at a time); only the bandwidth "
                            + "tests send both ways at once: drop -b, or run " + test.replace("_lat", "_bw") + " -b");
        }
        // perftest's defaults, which are extsock's too, are accepted
        Cli defaults = Cli.run("perf", "client", "send_lat", "localhost", "-p", port, "-q", "1", "-c", "RC", "-n", "100");
        assertEquals(0, defaults.waitFor(), defaults.transcript());
        Cli help = Cli.run("perf", "client", "--help");
        assertEquals(0, help.waitFor(), help.transcript());
        assertTrue(help.out().contains("[SERVER]") && help.out().contains("--report_gbits")
                && help.out().contains("-b, --bidirectional") && help.out().contains("-p, --port"), help.transcript());
    }

    /** The first row of the client's bandwidth table, matched against perftest's format. */
    private static Matcher bandwidthRow(Cli client, boolean gbits) {
        List<String> lines = client.out().lines().toList();
        for (int i = 0; i < lines.size() - 1; i++) {
            if (lines.get(i).startsWith(" #bytes     #iterations")) {
                String row = lines.get(i + 1);
                Matcher matcher = BW_ROW.matcher(row);
                return gbits && !matcher.matches() ? BW_ROW_EXT.matcher(row) : BW_ROW.matcher(row);
            }
        }
        return BW_ROW.matcher("no table");
    }
}
