package io.extsock.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --jfr FILE} on the command line, run as a user runs it (a process per command): the
 * file is a Flight Recorder recording with extsock's events of that run, written when the
 * command ends well and when it fails.
 */
@Timeout(180)
class JfrCliIT {

    @TempDir
    Path temp;

    @Test
    void anEchoRunIsRecordedOnBothEnds() throws Exception {
        Path serverFile = temp.resolve("server.jfr");
        Path clientFile = temp.resolve("client.jfr");
        try (Cli server = Cli.server("echo", "server", "--port", "0", "--iwarp", "--connections", "1",
                "--jfr", serverFile.toString())) {
            Cli client = Cli.run("--jfr", clientFile.toString(), "echo", "client", "--port", "" + server.port(),
                    "--iwarp", "--size", "4K", "--count", "100");
            assertEquals(0, client.waitFor(), client.transcript());
            assertEquals(0, server.waitFor(), server.transcript());
        }
        List<RecordedEvent> clientEvents = RecordingFile.readAllEvents(clientFile);
        RecordedEvent connected = only(clientEvents, "io.extsock.IwarpConnected");
        assertEquals("initiator", connected.getString("role"));
        assertTrue(connected.getBoolean("crc"));
        RecordedEvent closed = named(clientEvents, "io.extsock.ConnectionStatistics").stream()
                .filter(e -> e.getString("state").equals("CLOSED")).findFirst().orElseThrow();
        // 100 messages of 4 KiB each way, each stream Send with its 4-byte header
        assertTrue(closed.getLong("sendsPayloadSent") >= 100 * 4100L, closed.toString());
        assertTrue(closed.getLong("sendsPayloadReceived") >= 100 * 4100L, closed.toString());
        assertTrue(closed.getLong("bytesSent") > closed.getLong("sendsPayloadSent"), closed.toString());
        assertEquals(0, closed.getLong("errors"), closed.toString());
        assertFalse(named(clientEvents, "jdk.JVMInformation").isEmpty(), "the JDK's default events too");

        List<RecordedEvent> serverEvents = RecordingFile.readAllEvents(serverFile);
        assertEquals("responder", only(serverEvents, "io.extsock.IwarpConnected").getString("role"));
    }

    /** A server runs until it is stopped (SIGTERM, as Ctrl-C): its recording is written then. */
    @Test
    void aStoppedServerWritesItsRecording() throws Exception {
        Path file = temp.resolve("stopped.jfr");
        try (Cli server = Cli.server("echo", "server", "--port", "0", "--iwarp", "--jfr", file.toString())) {
            Cli client = Cli.run("echo", "client", "--port", "" + server.port(), "--iwarp", "--count", "10");
            assertEquals(0, client.waitFor(), client.transcript());
            server.terminate();
            server.waitFor();
        }
        RecordedEvent connected = only(RecordingFile.readAllEvents(file), "io.extsock.IwarpConnected");
        assertEquals("responder", connected.getString("role"));
    }

    /** A plain echo server echoes the MPA Request: the switch fails, and the file says why. */
    @Test
    void aFailedRunIsRecordedToo() throws Exception {
        Path file = temp.resolve("failed.jfr");
        try (Cli server = Cli.server("echo", "server", "--port", "0", "--connections", "1")) {
            Cli client = Cli.run("echo", "client", "--port", "" + server.port(), "--iwarp", "--count", "1",
                    "--jfr", file.toString());
            assertEquals(1, client.waitFor(), client.transcript());
            assertTrue(client.err().contains("peer is not in IWARP_MODE"), client.transcript());
        }
        assertTrue(Files.size(file) > 0);
        RecordedEvent failed = only(RecordingFile.readAllEvents(file), "io.extsock.NegotiationFailed");
        assertEquals("NOT_AN_IWARP_PEER", failed.getString("reason"));
        assertEquals("initiator", failed.getString("role"));
    }

    @Test
    void anUnwritableFileIsABadArgument() throws Exception {
        Path file = temp.resolve("no-such-directory").resolve("run.jfr");
        Cli.run("demo", "--jfr", file.toString()).assertUserError(2, "demo", "--jfr: cannot write " + file);
    }

    private static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
        return events.stream().filter(e -> e.getEventType().getName().equals(name)).collect(Collectors.toList());
    }

    private static RecordedEvent only(List<RecordedEvent> events, String name) {
        List<RecordedEvent> found = named(events, name);
        assertEquals(1, found.size(), name + " in " + found);
        return found.get(0);
    }
}
