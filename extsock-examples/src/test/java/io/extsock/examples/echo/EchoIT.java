package io.extsock.examples.echo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.examples.cli.Cli;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code extsock echo server} and {@code client} in two processes, plain and in IWARP_MODE. */
@Timeout(180)
class EchoIT {

    /** The client's result row: connections, messages, bytes, time, msg/s, five latencies, verified. */
    private static final Pattern ROW = Pattern.compile(
            "(?m)^\\s*(\\d+)\\s+(\\d+)\\s+[\\d.]+ (?:B|KiB|MiB)\\s+[\\d.]+ s\\s+\\d+(\\s+[\\d.]+){5}\\s+yes$");

    @Test
    void plainEchoWithConcurrentConnections() throws Exception {
        try (Cli server = Cli.server("echo", "server", "--port", "0", "--connections", "3")) {
            assertTrue(server.out().contains("plain TCP (passthrough)"), server.transcript());
            Cli client = Cli.run("echo", "client", "--port", "" + server.port(), "--size", "1K", "--count", "300",
                    "--concurrency", "3");
            assertEquals(0, client.waitFor(), client.transcript());
            assertResult(client, 3, 900);
            assertEquals(0, server.waitFor(), server.transcript());
            assertEquals("", server.err(), server.transcript());
        }
    }

    @Test
    void iwarpEchoWithMarkersAndWithoutCrc() throws Exception {
        try (Cli server = Cli.server("echo", "server", "--port", "0", "--iwarp", "--no-crc", "--connections", "2")) {
            Cli client = Cli.run("echo", "client", "--port", "" + server.port(), "--iwarp", "--no-crc", "--markers",
                    "--size", "20000", "--count", "50", "--concurrency", "2");
            assertEquals(0, client.waitFor(), client.transcript());
            // the client asked for markers in what it receives; the server asked for none
            assertTrue(client.out().contains("over IWARP_MODE (CRC off, markers received)"), client.transcript());
            assertResult(client, 2, 100);
            assertEquals(0, server.waitFor(), server.transcript());
            assertEquals("", server.err(), server.transcript());
        }
    }

    @Test
    void iwarpEchoWithSpinningOff() throws Exception {
        try (Cli server = Cli.server("echo", "server", "--port", "0", "--iwarp", "--spin-micros", "0",
                "--connections", "1")) {
            assertTrue(server.out().contains("IWARP_MODE (CRC on, markers off, spin 0 us)"), server.transcript());
            Cli client = Cli.run("echo", "client", "--port", "" + server.port(), "--iwarp", "--spin-micros", "0",
                    "--size", "64", "--count", "200");
            assertEquals(0, client.waitFor(), client.transcript());
            assertTrue(client.out().contains("over IWARP_MODE (CRC on, markers off, spin 0 us)"), client.transcript());
            assertResult(client, 1, 200);
            assertEquals(0, server.waitFor(), server.transcript());
            assertEquals("", server.err(), server.transcript());
        }
    }

    /** The header says what the negotiation agreed on: CRC is on when either end asks for it. */
    @Test
    void theHeaderSaysWhatWasAgreedNotWhatWasAsked() throws Exception {
        try (Cli server = Cli.server("echo", "server", "--port", "0", "--iwarp", "--connections", "1")) {
            Cli client = Cli.run("echo", "client", "--port", "" + server.port(), "--iwarp", "--no-crc",
                    "--count", "10");
            assertEquals(0, client.waitFor(), client.transcript());
            assertTrue(client.out().contains("over IWARP_MODE (CRC on, markers off)"), client.transcript());
            assertEquals(0, server.waitFor(), server.transcript());
        }
    }

    /** With --verbose the server prints a line as each connection starts (its mode) and as it ends. */
    @Test
    void aVerboseServerSaysSomethingPerConnection() throws Exception {
        try (Cli server = Cli.server("echo", "server", "--port", "0", "--iwarp", "--no-crc", "--verbose",
                "--connections", "2")) {
            for (int i = 0; i < 2; i++) {
                Cli client = Cli.run("echo", "client", "--port", "" + server.port(), "--iwarp", "--count", "10",
                        "--size", "100");
                assertEquals(0, client.waitFor(), client.transcript());
            }
            assertEquals(0, server.waitFor(), server.transcript());
            String out = server.out();
            assertEquals(2, out.lines().filter(line -> line.matches(
                    "connection from /127\\.0\\.0\\.1:\\d+: IWARP_MODE \\(CRC on, markers off\\)")).count(), server.transcript());
            assertEquals(2, out.lines().filter(line -> line.matches(
                    "connection from /127\\.0\\.0\\.1:\\d+: echoed 1000 B in [\\d.]+ s, closed by the client")).count(),
                    server.transcript());
        }
        try (Cli quiet = Cli.server("echo", "server", "--port", "0", "--connections", "1")) {
            assertEquals(0, Cli.run("echo", "client", "--port", "" + quiet.port(), "--count", "10").waitFor());
            assertEquals(0, quiet.waitFor(), quiet.transcript());
            assertEquals(1, quiet.out().lines().count(), "the listening line only, without --verbose\n" + quiet.transcript());
        }
    }

    private static void assertResult(Cli client, int connections, int messages) {
        String out = client.out();
        assertTrue(out.matches("(?s).*rtt p50\\[us]\\s+p90\\[us]\\s+p99\\[us]\\s+p99\\.9\\[us]\\s+max\\[us]\\s+verified\n.*"),
                client.transcript());
        Matcher row = ROW.matcher(out);
        assertTrue(row.find(), "a result row\n" + client.transcript());
        assertEquals(connections, Integer.parseInt(row.group(1)), client.transcript());
        assertEquals(messages, Integer.parseInt(row.group(2)), client.transcript());
        assertTrue(out.contains("every echoed byte verified"), client.transcript());
    }
}
