package io.extsock.examples.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.examples.cli.Cli;
import io.extsock.examples.cli.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code extsock perf}: every test against one server in another process, perftest's table
 * layout to the character, JSON one object per line, -a, --duration, and compare.
 */
@Timeout(300)
class PerfIT {

    private static final String LINE = "-".repeat(87);
    private static final String BW_HEADER =
            " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]";
    private static final String LAT_HEADER = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]"
            + "    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] ";
    /** perftest's REPORT_FMT, " %-7lu    %-10lu       %-7.2lf            %-7.2lf\t\t   %-7.6lf". */
    private static final Pattern BW_ROW = Pattern.compile(
            " (\\d+) *    (\\d+) *       (\\d+\\.\\d{2}) *            (\\d+\\.\\d{2}) *\t\t   (\\d+\\.\\d{6}) *");
    /** perftest's REPORT_FMT_LAT. */
    private static final Pattern LAT_ROW = Pattern.compile(" (\\d+) * (\\d+)          (\\d+\\.\\d{2}) *        "
            + "(\\d+\\.\\d{2}) *      (\\d+\\.\\d{2}) *  \t       (\\d+\\.\\d{2}) *     \t(\\d+\\.\\d{2}) *\t\t"
            + "(\\d+\\.\\d{2}) * \t\t(\\d+\\.\\d{2}) *");
    private static final Pattern JSON = Pattern.compile("\\{\"test\":\"(\\w+)\",\"mode\":\"(\\w+)\",\"bytes\":(\\d+),"
            + "\"iterations\":(\\d+),\"bw_MBps\":([\\d.]+),.*\"lat_us_p50\":([\\d.]+),.*\"lat_us_p99\":([\\d.]+),.*}");

    private static Cli server;
    private static String port;

    @BeforeAll
    static void startServer() throws Exception {
        server = Cli.server("perf", "server", "--port", "0");
        port = String.valueOf(server.port());
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void everyTestPrintsPerftestsTable() throws Exception {
        for (PerfTest test : PerfTest.values()) {
            Cli client = Cli.run("perf", "client", test.name(), "--port", port, "--size", "4096", "--iters", "300");
            assertEquals(0, client.waitFor(), client.transcript());
            List<String> lines = client.out().lines().toList();
            assertEquals(LINE, lines.get(0), client.transcript());
            assertEquals("                    " + test.title(), lines.get(1), client.transcript());
            int header = lines.indexOf(test.latency() ? LAT_HEADER : BW_HEADER);
            assertTrue(header > 1, "perftest's column header\n" + client.transcript());
            Matcher row = (test.latency() ? LAT_ROW : BW_ROW).matcher(lines.get(header + 1));
            assertTrue(row.matches(), "perftest's row layout\n" + client.transcript());
            assertEquals("4096", row.group(1), client.transcript());
            assertEquals("300", row.group(2), client.transcript());
            assertTrue(Double.parseDouble(row.group(4)) > 0, client.transcript());
            assertEquals(LINE, lines.get(header + 2), client.transcript());
            assertEquals("", client.err(), client.transcript());
        }
    }

    @Test
    void allSizesFromTwoBytesToEightMebibytes() throws Exception {
        Cli client = Cli.run("perf", "client", "write_bw", "--port", port, "-a", "--iters", "20");
        assertEquals(0, client.waitFor(), client.transcript());
        List<Integer> sizes = new ArrayList<>();
        for (String line : client.out().lines().toList()) {
            Matcher row = BW_ROW.matcher(line);
            if (row.matches()) {
                sizes.add(Integer.parseInt(row.group(1)));
                assertEquals("20", row.group(2), line);
            }
        }
        List<Integer> expected = new ArrayList<>();
        for (int size = 2; size <= 8 << 20; size <<= 1) {
            expected.add(size);
        }
        assertEquals(expected, sizes, client.transcript());
    }

    @Test
    void jsonIsOneObjectPerLine() throws Exception {
        Cli client = Cli.run("perf", "client", "send_lat", "--port", port, "--json", "--iters", "200", "-a");
        assertEquals(0, client.waitFor(), client.transcript());
        List<String> lines = client.out().lines().toList();
        assertEquals(23, lines.size(), client.transcript());
        int size = 2;
        for (String line : lines) {
            Matcher json = JSON.matcher(line);
            assertTrue(json.matches(), line);
            assertEquals("send_lat", json.group(1));
            assertEquals("iwarp", json.group(2));
            assertEquals(size, Integer.parseInt(json.group(3)));
            assertEquals(200, Integer.parseInt(json.group(4)));
            assertTrue(Double.parseDouble(json.group(6)) > 0 && Double.parseDouble(json.group(7)) >= Double.parseDouble(json.group(6)), line);
            size <<= 1;
        }
    }

    @Test
    void socketModesAndDuration() throws Exception {
        for (String mode : List.of("plain", "passthrough", "iwarp")) {
            Cli client = Cli.run("perf", "client", "tcp_bw", "--port", port, "--mode", mode, "--duration", "1", "--json");
            assertEquals(0, client.waitFor(), client.transcript());
            Matcher json = JSON.matcher(client.out().strip());
            assertTrue(json.matches(), client.transcript());
            assertEquals(mode, json.group(2));
            assertTrue(Long.parseLong(json.group(4)) > 10, "a second's worth of iterations\n" + client.transcript());
        }
    }

    @Test
    void compareRunsTheThreeSocketsSideBySide() throws Exception {
        // 20 MiB in 64 KiB messages: 320 iterations, more than --iters asks of the latency rows.
        Cli json = Cli.run("perf", "compare", "--bw-bytes", "20M", "--rounds", "1", "--iters", "200", "--no-many",
                "--json");
        assertEquals(0, json.waitFor(), json.transcript());
        List<String> lines = json.out().lines().toList();
        assertEquals(13, lines.size(), "7 latency rows (tcp_rr too), 6 bandwidth rows\n" + json.transcript());
        for (String line : lines) {
            String iterations = line.contains("\"bytes\":65536,") ? "320" : "200";
            assertTrue(line.contains("\"iterations\":" + iterations + ","), line);
        }
        for (String test : List.of("tcp_lat", "tcp_bw")) {
            for (String mode : List.of("plain", "passthrough", "iwarp")) {
                String line = jsonLine(json, test, mode);
                assertTrue(line.matches(".*\"bw_MBps\":[\\d.]+,\"lat_us_p50\":[\\d.]+,\"lat_us_p99\":[\\d.]+"
                        + ",\"ratio_to_plain\":[\\d.]+,\"ratio_ci_low\":null,\"ratio_ci_high\":null,.*"), line);
                assertTrue(line.contains(test.equals("tcp_lat") ? "\"ratio_of\":\"lat_p50\"" : "\"ratio_of\":\"bw_average\""),
                        line);
                // The tail's ratio, for latency rows only.
                assertEquals(test.equals("tcp_lat"), line.matches(".*\"p99_ratio_to_plain\":[\\d.]+,"
                        + "\"p99_ratio_ci_low\":null,\"p99_ratio_ci_high\":null,.*"), line);
                if (mode.equals("plain")) {
                    assertTrue(line.contains("\"ratio_to_plain\":1.000"), line);
                    assertTrue(line.contains("\"verdict\":\"baseline\""), line);
                } else {
                    assertTrue(line.matches(".*\"verdict\":\"(faster|slower) \\(n<6\\)\".*"), line);
                }
            }
        }
        assertTrue(jsonLine(json, "read_lat", "iwarp").contains("\"compared_with\":\"plain tcp_rr 64 B (full round trip)\""),
                json.transcript());
        assertTrue(jsonLine(json, "write_lat", "iwarp").contains("\"compared_with\":\"plain tcp_lat 64 B (half round trip)\""),
                json.transcript());
        assertTrue(jsonLine(json, "tcp_rr", "plain").contains("\"ratio_to_plain\":1.000"), json.transcript());
        Cli table = Cli.run("perf", "compare", "--bw-bytes", "1M", "--rounds", "2", "--iters", "100", "--no-many");
        assertEquals(0, table.waitFor(), table.transcript());
        for (String socket : List.of("java.net.Socket", "ExtendedSocket (passthrough)", "ExtendedSocket (IWARP_MODE)",
                "IWARP_MODE, RDMA Write", "ratio of", "ratio [95% CI]", "p99 ratio [95% CI]", "compared with",
                "1.00 [n<6]", "baseline", "p99 ratio: a latency row's tail",
                "It is not the ratio of the medians shown",
                "TCP congestion control: " + TcpCongestionControl.name())) {
            assertTrue(table.out().contains(socket), table.transcript());
        }
    }

    /**
     * perf client's -t and -r, for the extended API's bandwidth rows only: the header names them,
     * and each row's JSON says the depths it ran with (a send_bw whose server posted other than
     * its client counted on would end at the first Send finding no Receive).
     */
    @Test
    void compareTakesTheDepthsOfTheBandwidthRows() throws Exception {
        Cli json = Cli.run("perf", "compare", "--bw-bytes", "4M", "--rounds", "1", "--iters", "50", "--no-many",
                "-t", "8", "-r", "6", "--json");
        assertEquals(0, json.waitFor(), json.transcript());
        assertTrue(jsonLine(json, "send_bw", "iwarp").contains(",\"tx_depth\":8,\"rx_depth\":6,\"rounds\":1}"),
                json.transcript());
        for (String test : List.of("write_bw", "read_bw")) {
            assertTrue(jsonLine(json, test, "iwarp").contains(",\"tx_depth\":8,\"rounds\":1}"), json.transcript());
        }
        for (String test : List.of("tcp_bw", "tcp_lat", "send_lat")) {
            String line = jsonLine(json, test, test.equals("send_lat") ? "iwarp" : "plain");
            assertFalse(line.contains("_depth"), line);
        }
        Cli table = Cli.run("perf", "compare", "--bw-bytes", "1M", "--rounds", "1", "--iters", "50", "--no-many",
                "--tx-depth", "4", "--rx-depth", "4");
        assertEquals(0, table.waitFor(), table.transcript());
        assertTrue(table.out().lines().findFirst().orElseThrow().contains("; TX depth 4; RX depth 4)"), table.transcript());
        Cli.run("perf", "compare", "-r", "0").assertUserError(2, "perf", "-r/--rx-depth must be from 1 to 512: 0");
        Cli.run("perf", "compare", "-t", "5000").assertUserError(2, "perf", "-t/--tx-depth must be from 1 to 512 (the engine's send queue): 5000");
        Cli.run("perf", "compare", "-r", "64", "--bw-sizes", "64K,32M").assertUserError(2, "perf",
                "-r/--rx-depth 64 Receives of 32.0 MiB would take 2.0 GiB at the receiving end");
    }

    /** Six rounds give a 95% interval around every median; each bandwidth size is its own baseline's. */
    @Test
    void compareGivesIntervalsFromSixRoundsAndRunsEveryBandwidthSize() throws Exception {
        Cli json = Cli.run("perf", "compare", "--bw-bytes", "1M", "--rounds", "6", "--iters", "50", "--bw-sizes",
                "4K,64K", "--no-many", "--json");
        assertEquals(0, json.waitFor(), json.transcript());
        List<String> lines = json.out().lines().toList();
        assertEquals(7 + 2 * 6, lines.size(), json.transcript());
        Pattern ratio = Pattern.compile(".*\"ratio_to_plain\":([\\d.]+),\"ratio_ci_low\":([\\d.]+),"
                + "\"ratio_ci_high\":([\\d.]+),.*\"rounds\":6}");
        for (String line : lines) {
            Matcher m = ratio.matcher(line);
            assertTrue(m.matches(), line);
            double median = Double.parseDouble(m.group(1));
            assertTrue(Double.parseDouble(m.group(2)) <= median && median <= Double.parseDouble(m.group(3)), line);
        }
        for (String bytes : List.of("4096", "65536")) {
            List<String> sized = lines.stream().filter(l -> l.contains("\"bytes\":" + bytes + ",")).toList();
            assertEquals(6, sized.size(), json.transcript());
            sized.forEach(l -> assertTrue(l.contains("\"compared_with\":\"plain tcp_bw " + bytes + " B\""), l));
        }
    }

    /**
     * The many-connections rows, small: plain and IWARP_MODE on platform threads, and on virtual
     * threads where the JDK has them (else one line saying they were skipped and why).
     */
    @Test
    void compareRunsManyConnections() throws Exception {
        Cli json = Cli.run("perf", "compare", "--bw-bytes", "1M", "--rounds", "1", "--iters", "50", "--conns", "20",
                "--conn-round-trips", "5", "--json");
        assertEquals(0, json.waitFor(), json.transcript());
        List<String> many = json.out().lines().filter(l -> l.startsWith("{\"test\":\"many_rr\"")).toList();
        Pattern row = Pattern.compile("\\{\"test\":\"many_rr\",\"mode\":\"(plain|iwarp)\",\"threads\":\"(platform|virtual)\","
                + "\"socket\":\"([^\"]+)\",\"connections\":20,\"round_trips\":5,\"bytes\":64,\"setup_ms\":([\\d.]+),"
                + "\"round_trips_ms\":([\\d.]+),\"total_ms\":([\\d.]+),\"ratio_to_plain\":([\\d.]+),.*"
                + "\"setup_ratio_to_plain\":([\\d.]+),.*\"round_trips_ratio_to_plain\":([\\d.]+),.*");
        boolean virtual = Runtime.version().feature() >= 21;
        assertEquals(virtual ? 6 : 4, many.size(), json.transcript());
        List<String> seen = new ArrayList<>();
        Map<String, double[]> plainPhases = new HashMap<>();  // setup and round trips, by threads
        for (String line : many) {
            if (line.contains("\"skipped\"")) {
                assertTrue(!virtual && line.contains("virtual threads need JDK 21"), line);
                continue;
            }
            Matcher m = row.matcher(line);
            assertTrue(m.matches(), line);
            seen.add(m.group(2) + " " + m.group(1) + (m.group(3).endsWith("negotiated before accept") ? " ahead" : ""));
            double setup = Double.parseDouble(m.group(4));
            double roundTrips = Double.parseDouble(m.group(5));
            assertTrue(setup > 0 && roundTrips > 0, line);
            assertEquals(setup + roundTrips, Double.parseDouble(m.group(6)), 0.02, line);
            if (m.group(1).equals("plain")) {
                assertEquals("1.000", m.group(7), line);
                assertEquals("1.000", m.group(8), line);
                assertEquals("1.000", m.group(9), line);
                plainPhases.put(m.group(2), new double[] {setup, roundTrips});
            } else {
                // One round: each phase's ratio is that phase's time over plain's, on the same threads.
                double[] plain = plainPhases.get(m.group(2));
                assertQuotient(setup, plain[0], Double.parseDouble(m.group(8)), line);
                assertQuotient(roundTrips, plain[1], Double.parseDouble(m.group(9)), line);
            }
        }
        List<String> expected = new ArrayList<>(List.of("platform plain", "platform iwarp", "platform iwarp ahead"));
        if (virtual) {
            expected.addAll(List.of("virtual plain", "virtual iwarp", "virtual iwarp ahead"));
        }
        assertEquals(expected, seen, json.transcript());
    }

    /**
     * The printed ratio is the quotient of the printed times, as far as their rounding (0.01 ms,
     * 0.001 for the ratio) lets one tell.
     */
    private static void assertQuotient(double ms, double plainMs, double ratio, String line) {
        double low = (ms - 0.005) / (plainMs + 0.005) - 0.0005;
        double high = plainMs > 0.005 ? (ms + 0.005) / (plainMs - 0.005) + 0.0005 : Double.POSITIVE_INFINITY;
        assertTrue(ratio >= low && ratio <= high, ratio + " is not " + ms + " / " + plainMs + ": " + line);
    }

    /**
     * The file rows: file get by RDMA Write and Read against transferTo, in a temporary directory
     * of the test's (the JVM's java.io.tmpdir), which is left empty.
     */
    @Test
    void compareRunsTheFileRowsAndDeletesItsFile(@TempDir Path temporary) throws Exception {
        Cli json = Cli.java(List.of("-Djava.io.tmpdir=" + temporary, "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "perf", "compare", "--bw-bytes", "1M", "--rounds", "1", "--iters", "50", "--no-many",
                "--file-size", "8M", "--json"));
        assertEquals(0, json.waitFor(), json.transcript());
        List<String> files = json.out().lines().filter(l -> l.startsWith("{\"test\":\"file_get\"")).toList();
        Pattern row = Pattern.compile("\\{\"test\":\"file_get\",\"method\":\"(\\w+)\",\"mode\":\"(\\w+)\",\"socket\":\"[^\"]+\","
                + "\"bytes\":8388608,\"transfer_s\":([\\d.]+),\"MBps\":([\\d.]+),\"ratio_to_plain\":([\\d.]+),.*"
                + "\"compared_with\":\"file get by transferTo \\(sendfile\\)\".*");
        List<String> methods = new ArrayList<>();
        for (String line : files) {
            Matcher m = row.matcher(line);
            assertTrue(m.matches(), line);
            methods.add(m.group(1) + " " + m.group(2));
            assertTrue(Double.parseDouble(m.group(4)) > 0, line);
            if (m.group(1).equals("transferTo")) {
                assertEquals("1.000", m.group(5), line);
            }
        }
        assertEquals(List.of("transferTo plain", "write iwarp", "read iwarp"), methods, json.transcript());
        try (java.util.stream.Stream<Path> left = Files.list(temporary)) {
            assertEquals(List.of(), left.toList(), "the temporary file and directory are deleted");
        }
    }

    private static String jsonLine(Cli json, String test, String mode) {
        String prefix = "{\"test\":\"" + test + "\",\"mode\":\"" + mode + "\"";
        return json.out().lines().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow(
                () -> new AssertionError("no " + test + " " + mode + "\n" + json.transcript()));
    }
}
