package io.extsock.examples.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.examples.cli.Cli;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What {@code extsock file} says when the two ends disagree on the mode, or the client goes away. */
@Timeout(300)
class FileMessagesIT {

    @TempDir
    Path directory;

    /** Without --method, --no-iwarp gets by stream: the default method follows the mode. */
    @Test
    void noIwarpWithoutMethodGetsByStream() throws Exception {
        Path source = file("source.bin", 3 << 20);
        try (Cli server = Cli.server("file", "serve", source.toString(), "--port", "0", "--no-iwarp",
                "--connections", "1")) {
            Cli get = Cli.run("file", "get", "--port", "" + server.port(), "--no-iwarp",
                    "-o", directory.resolve("got.bin").toString());
            assertEquals(0, get.waitFor(), get.transcript());
            assertTrue(get.out().contains(" by stream in "), get.transcript());
            assertEquals(0, server.waitFor(), server.transcript());
        }
        Cli.run("file", "get", "--port", "1", "--no-iwarp", "--method", "write")
                .assertUserError(2, "file", "--method write is one-sided RDMA and needs IWARP_MODE");
    }

    /** A plain client of an IWARP_MODE server hears the server close without an answer, and the hint. */
    @Test
    void aPlainClientOfAnIwarpServerGetsTheHint() throws Exception {
        Path source = file("source.bin", 4096);
        try (Cli server = Cli.server("file", "serve", source.toString(), "--port", "0", "--mpa-timeout", "500",
                "--connections", "1")) {
            Cli.run("file", "get", "--port", "" + server.port(), "--no-iwarp", "-o", directory.resolve("x").toString())
                    .assertUserError(1, "file", "the server closed the connection without answering the request"
                            + " (is it in IWARP_MODE? then drop --no-iwarp)");
        }
    }

    /** A plain server recognises extsock's own client asking for IWARP_MODE. */
    @Test
    void aPlainServerSaysTheClientAskedForIwarpMode() throws Exception {
        Path source = file("source.bin", 4096);
        try (Cli server = Cli.server("file", "serve", source.toString(), "--port", "0", "--no-iwarp",
                "--connections", "1")) {
            Cli get = Cli.run("file", "get", "--port", "" + server.port(), "-o", directory.resolve("x").toString());
            assertEquals(1, get.waitFor(), get.transcript());
            assertEquals(0, server.waitFor(), server.transcript());
            assertTrue(server.err().contains("the client asked for IWARP_MODE (its first bytes are an MPA request),"
                    + " and this server runs plain TCP"), server.transcript());
        }
    }

    /** A client stopped mid-transfer: the server says it went away, and after how much. */
    @Test
    void aClientThatGoesAwayIsReportedAsThat() throws Exception {
        Path source = file("source.bin", 4L << 30);
        Path output = Files.createDirectory(directory.resolve("out"));
        try (Cli server = Cli.server("file", "serve", source.toString(), "--port", "0", "--connections", "1");
             Cli get = Cli.start("file", "get", "--port", "" + server.port(), "--method", "stream",
                     "-o", output.toString())) {
            awaitPartFile(output, get);
            get.terminate();
            assertEquals(0, server.waitFor(), server.transcript());
            String error = server.err();
            assertTrue(error.matches("(?s).*connection from /127\\.0\\.0\\.1:\\d+: the client went away after "
                    + "[\\d.]+ (B|KiB|MiB|GiB) of 4\\.0 GiB \\(\\d+ octets\\): .*"), server.transcript());
        }
    }

    private Path file(String name, long length) throws IOException {
        Path file = directory.resolve(name);
        try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
            sparse.setLength(length);
        }
        return file;
    }

    private static void awaitPartFile(Path output, Cli get) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!hasPartFile(output)) {
            assertTrue(get.isAlive(), "the client ended before its part file appeared\n" + get.transcript());
            assertTrue(System.nanoTime() < deadline, "no part file\n" + get.transcript());
            Thread.sleep(5);  // a polling interval
        }
    }

    private static boolean hasPartFile(Path output) throws IOException {
        try (Stream<Path> files = Files.list(output)) {
            return files.anyMatch(file -> file.getFileName().toString().endsWith(".extsock-part"));
        }
    }
}
