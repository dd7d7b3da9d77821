package io.extsock.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user sees when something is wrong: every error a user can cause is one line on
 * standard error naming the problem, a non-zero exit code (2 for bad arguments, 1 otherwise),
 * and a stack trace only with --verbose. And every command answers --help.
 */
@Timeout(300)
public class CommandLineErrorsIT {

    @TempDir
    public Path directory;

    @Test
    public void everyCommandHasHelpAndVersion() throws Exception {
        for (String command : List.of("", "demo", "echo", "echo server", "echo client", "file", "file serve", "file get",
                "perf", "perf server", "perf client", "perf compare", "rping")) {
            List<String> args = new java.util.ArrayList<>(command.isEmpty() ? List.of() : List.of(command.split(" ")));
            args.add("--help");
            Cli cli = Cli.run(args.toArray(String[]::new));
            assertEquals(0, cli.waitFor(), cli.transcript());
            assertTrue(cli.out().startsWith("Usage: extsock" + (command.isEmpty() ? "" : " " + command)), cli.transcript());
            assertTrue(cli.out().contains("--help"), cli.transcript());
        }
        Cli version = Cli.run("perf", "client", "--version");
        assertEquals(0, version.waitFor(), version.transcript());
        assertTrue(version.out().startsWith("extsock "), version.transcript());
    }

    @Test
    public void badArgumentsAreOneLineAndExitTwo() throws Exception {
        Cli.run("echo", "client", "--frobnicate").assertUserError(2, "echo", "Unknown option: '--frobnicate'");
        Cli.run("echo", "client", "--size", "12X").assertUserError(2, "echo", "'12X' is not a size in bytes");
        Cli.run("echo", "client", "--count", "0").assertUserError(2, "echo", "--count must be at least 1");
        Cli.run("echo").assertUserError(2, "echo", "missing subcommand: one of server, client");
        Cli.run("perf", "client", "ping_pong").assertUserError(2, "perf", "no test named 'ping_pong': the test is one of"
                + " send_lat, send_bw, write_lat, write_bw, read_lat, read_bw, tcp_lat, tcp_bw, tcp_rr");
        Cli.run("perf", "client", "localhost", "ping_pong").assertUserError(2, "perf",
                "no test named 'localhost' or 'ping_pong'");
        Cli.run("perf", "client", "send_lat", "--mode", "plain").assertUserError(2, "perf", "IWARP_MODE only");
        Cli.run("perf", "client", "write_bw", "-a", "--size", "64").assertUserError(2, "perf", "drop --size");
        Cli.run("file", "get", "--method", "write", "--no-iwarp").assertUserError(2, "file", "needs IWARP_MODE");
        Cli.run("file", "get", "--method", "carrier-pigeon").assertUserError(2, "file", "--method");
        Cli.run("echo", "client", "--port", "70000").assertUserError(2, "echo", "--port out of range: 70000");
        Cli.run("perf", "client", "tcp_bw", "--port", "0").assertUserError(2, "perf", "--port out of range: 0");
        Cli.run("file", "get", "--mpa-timeout", "0").assertUserError(2, "file", "--mpa-timeout must be at least 1 ms");
        Cli.run("echo", "client", "--spin-micros", "-1").assertUserError(2, "echo", "--spin-micros must be from 0 to 10000: -1");
        Cli.run("echo", "server", "--spin-micros", "10001").assertUserError(2, "echo", "--spin-micros must be from 0 to 10000");
        Cli.run("demo", "--warm-up", "-1").assertUserError(2, "demo", "--warm-up must not be negative: -1");
        Cli.run("demo", "--runs", "0").assertUserError(2, "demo", "--runs must be at least 1: 0");
        Cli.run("nonsense").assertUserError(2, "", "Unmatched argument");
    }

    @Test
    public void connectionRefused() throws Exception {
        int port = freePort();
        String refused = "connection refused: 127.0.0.1:" + port + " (is the server running?)";
        Cli.run("echo", "client", "--host", "127.0.0.1", "--port", "" + port).assertUserError(1, "echo", refused);
        Cli.run("file", "get", "--host", "127.0.0.1", "--port", "" + port).assertUserError(1, "file", refused);
        Cli perf = Cli.run("perf", "client", "tcp_lat", "--host", "127.0.0.1", "--port", "" + port);
        perf.assertUserError(1, "perf", refused);
        assertEquals("", perf.out(), "the error before any header, as perftest\n" + perf.transcript());
        Cli echo = Cli.run("echo", "client", "--host", "127.0.0.1", "--port", "" + port);
        echo.assertUserError(1, "echo", refused);
        assertEquals("", echo.out(), echo.transcript());
    }

    @Test
    public void verboseAddsTheStackTrace() throws Exception {
        int port = freePort();
        Cli cli = Cli.run("echo", "client", "--host", "127.0.0.1", "--port", "" + port, "--verbose");
        assertEquals(1, cli.waitFor(), cli.transcript());
        assertTrue(cli.err().startsWith("extsock echo: connection refused: 127.0.0.1:" + port), cli.transcript());
        assertTrue(cli.err().contains("java.net.ConnectException"), cli.transcript());
        assertTrue(cli.err().contains("\tat io.extsock.examples."), cli.transcript());
    }

    /**
     * A host that does not answer, made on loopback: a listener whose accept queue is full
     * drops further connection requests (Linux), so connecting times out as to a dead host.
     */
    @Test
    public void unreachableHost() throws Exception {
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            List<java.net.Socket> queued = fill(full);
            try {
                String port = "" + full.getLocalPort();
                String unreachable = "host unreachable: no answer from 127.0.0.1:" + port + " in time";
                Cli.run("echo", "client", "--host", "127.0.0.1", "--port", port, "--connect-timeout", "300")
                        .assertUserError(1, "echo", unreachable);
                Cli.run("perf", "client", "tcp_lat", "--host", "127.0.0.1", "--port", port, "--connect-timeout", "300")
                        .assertUserError(1, "perf", unreachable);
            } finally {
                for (java.net.Socket socket : queued) {
                    socket.close();
                }
            }
        }
    }

    /** Connects until the listener's accept queue is full. */
    private static List<java.net.Socket> fill(ServerSocket listener) throws IOException {
        List<java.net.Socket> queued = new java.util.ArrayList<>();
        for (int i = 0; i < 64; i++) {
            java.net.Socket socket = new java.net.Socket();
            try {
                socket.connect(listener.getLocalSocketAddress(), 200);
                queued.add(socket);
            } catch (java.net.SocketTimeoutException full) {
                socket.close();
                return queued;
            }
        }
        throw new IllegalStateException("the accept queue never filled");
    }

    @Test
    public void unknownHost() throws Exception {
        Cli.run("echo", "client", "--host", "no-such-host.invalid").assertUserError(1, "echo",
                "unknown host: no-such-host.invalid");
    }

    @Test
    public void portAlreadyInUse() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Cli.run("echo", "server", "--host", "127.0.0.1", "--port", "" + taken.getLocalPort())
                    .assertUserError(1, "echo", "cannot listen on 127.0.0.1:" + taken.getLocalPort());
        }
    }

    @Test
    public void peerNotInIwarpMode() throws Exception {
        try (Cli plain = Cli.server("echo", "server", "--port", "0", "--connections", "2")) {
            String port = "" + plain.port();
            Cli.run("echo", "client", "--port", port, "--iwarp").assertUserError(1, "echo",
                    "peer is not in IWARP_MODE");
            // file is in IWARP_MODE by default; an echo server is not
            Cli.run("file", "get", "--port", port, "-o", directory.resolve("x").toString())
                    .assertUserError(1, "file", "peer is not in IWARP_MODE");
        }
        try (Cli iwarp = Cli.server("echo", "server", "--port", "0", "--iwarp", "--mpa-timeout", "500",
                "--connections", "1")) {
            Cli.run("echo", "client", "--port", "" + iwarp.port()).assertUserError(1, "echo",
                    "the server closed the connection after 0 of 1000 messages (is it in IWARP_MODE? then add --iwarp)");
            iwarp.waitFor();
            assertTrue(iwarp.err().contains("peer is not in IWARP_MODE"), iwarp.transcript());
        }
        assertTrue(Files.list(directory).findAny().isEmpty(), "nothing written");
    }

    @Test
    public void missingFile() throws Exception {
        Path missing = directory.resolve("no-such-file.bin");
        Cli.run("file", "serve", missing.toString()).assertUserError(1, "file", "no such file: " + missing);
        Cli.run("file", "serve", directory.toString()).assertUserError(1, "file", "not a regular file: " + directory);
    }

    /**
     * A file larger than the free space of the output's file system: a sparse file that size
     * costs nothing to serve, and the check happens before anything is written.
     */
    @Test
    public void noSpaceLeftOnDevice() throws Exception {
        Path served = Files.createDirectory(directory.resolve("served")).resolve("huge.bin");
        Path output = Files.createDirectory(directory.resolve("output"));
        long free = Files.getFileStore(output).getUsableSpace();
        try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(served.toFile(), "rw")) {
            file.setLength(free + (1L << 30));
        }
        try (Cli server = Cli.server("file", "serve", served.toString(), "--port", "0", "--connections", "1")) {
            Cli get = Cli.run("file", "get", "--port", "" + server.port(), "-o", output.toString());
            get.assertUserError(1, "file", "no space left on device writing " + output.resolve("huge.bin") + " (needs ");
            assertTrue(get.err().contains(" free)"), get.transcript());
            assertEquals(0, server.waitFor(), server.transcript());
        }
        assertTrue(Files.list(output).findAny().isEmpty(), "nothing left in the output directory");
    }

    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
