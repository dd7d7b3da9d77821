package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedSocket;
import io.extsock.IwarpNegotiationException;
import io.extsock.IwarpOptions;
import io.extsock.core.events.ConnectionStatisticsEvent;
import io.extsock.core.events.IwarpConnectedEvent;
import io.extsock.core.events.NegotiationFailedEvent;
import io.extsock.core.events.StreamWindowGrownEvent;
import io.extsock.core.events.TerminateReceivedEvent;
import io.extsock.core.events.TerminateSentEvent;
import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.IwarpSettings;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.MessageType;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WriteRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * extsock's JFR events, recorded in this JVM while connections do known things, then read back
 * from the recording's file: each event with the values of what happened.
 */
@Timeout(60)
class JfrEventsTest {

    private static final Set<Access> REMOTE_WRITE = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE);

    @TempDir
    Path temp;

    @Test
    void aSwitchRecordsWhatWasNegotiated() throws Exception {
        List<RecordedEvent> events;
        String clientAddress;
        String serverAddress;
        IwarpSettings clientSettings;
        IwarpSettings serverSettings;
        try (Recording recording = EventRecording.start(IwarpConnectedEvent.class)) {
            try (IwarpSocketPair pair = IwarpSocketPair.open(
                    Map.of(IwarpOptions.CRC, false, IwarpOptions.MARKERS, true, IwarpOptions.IRD, 3,
                            IwarpOptions.ORD, 5, IwarpOptions.READY_TO_RECEIVE,
                            IwarpOptions.ReadyToReceive.ZERO_LENGTH_READ),
                    Map.of(IwarpOptions.CRC, false, IwarpOptions.IRD, 7, IwarpOptions.ORD, 2,
                            IwarpOptions.READY_TO_RECEIVE, IwarpOptions.ReadyToReceive.ZERO_LENGTH_READ))) {
                clientAddress = address(pair.client());
                serverAddress = address(pair.accepted());
                clientSettings = pair.clientVerbs().settings();
                serverSettings = pair.serverVerbs().settings();
            }
            events = EventRecording.stop(recording, temp);
        }
        // The client asked markers for what it receives; the peer's IRD 7 allows the client's ORD 5.
        // IRD is capped by the peer's ORD, ORD by the peer's IRD (RFC 6581 section 5).
        assertEquals(new IwarpSettings(2, false, false, true, 2, 5, clientSettings.maxFpduSize(), true),
                clientSettings);
        RecordedEvent client = only(events, "io.extsock.IwarpConnected", e -> e.getString("local").equals(clientAddress));
        assertEquals(serverAddress, client.getString("peer"));
        assertEquals("initiator", client.getString("role"));
        assertEquals(2, client.getInt("mpaRevision"));
        assertFalse(client.getBoolean("crc"));
        assertFalse(client.getBoolean("markersSent"));
        assertTrue(client.getBoolean("markersReceived"));
        assertEquals(2, client.getInt("ird"));
        assertEquals(5, client.getInt("ord"));
        assertEquals("ZERO_LENGTH_READ", client.getString("rtr"));
        assertEquals(clientSettings.maxFpduSize(), client.getInt("maxFpduSize"));
        assertTrue(client.getLong("negotiationDuration") > 0);

        RecordedEvent server = only(events, "io.extsock.IwarpConnected", e -> e.getString("local").equals(serverAddress));
        assertEquals(clientAddress, server.getString("peer"));
        assertEquals("responder", server.getString("role"));
        assertTrue(server.getBoolean("markersSent"));
        assertFalse(server.getBoolean("markersReceived"));
        assertEquals(serverSettings.ird(), server.getInt("ird"));
        assertEquals(serverSettings.ord(), server.getInt("ord"));
        assertEquals("ZERO_LENGTH_READ", server.getString("rtr"));
    }

    @Test
    void aFailedNegotiationAgainstAPlainPeerIsRecorded() throws Exception {
        List<RecordedEvent> events;
        String serverAddress;
        try (Recording recording = EventRecording.start(NegotiationFailedEvent.class);
             ServerSocket plain = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            serverAddress = "127.0.0.1:" + plain.getLocalPort();
            CompletableFuture<Void> peer = CompletableFuture.runAsync(() -> {
                try (Socket socket = plain.accept(); OutputStream out = socket.getOutputStream()) {
                    out.write("HTTP/1.1 400 Bad Request\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            try (ExtendedSocket socket = new ExtendedSocket()) {
                socket.setOption(IwarpOptions.IWARP_MODE, true);
                IwarpNegotiationException failure = assertThrows(IwarpNegotiationException.class,
                        () -> socket.connect(plain.getLocalSocketAddress()));
                assertEquals(IwarpNegotiationException.Reason.NOT_AN_IWARP_PEER, failure.reason());
            }
            peer.get(20, TimeUnit.SECONDS);
            events = EventRecording.stop(recording, temp);
        }
        RecordedEvent failed = only(events, "io.extsock.NegotiationFailed",
                e -> e.getString("peer").equals(serverAddress));
        assertEquals("NOT_AN_IWARP_PEER", failed.getString("reason"));
        assertEquals("initiator", failed.getString("role"));
        assertTrue(failed.getString("message").contains("HTTP/1.1 400"), failed.getString("message"));
        assertTrue(failed.getLong("negotiationDuration") > 0);
    }

    @Test
    void anOutOfBoundsWriteRecordsTheTerminateOnBothSides() throws Exception {
        List<RecordedEvent> events;
        String clientAddress;
        String serverAddress;
        try (Recording recording = EventRecording.start(TerminateSentEvent.class, TerminateReceivedEvent.class)) {
            try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
                clientAddress = address(pair.client());
                serverAddress = address(pair.accepted());
                IwarpConnection client = pair.clientVerbs();
                MemoryRegion target = pair.serverVerbs().register(ByteBuffer.allocateDirect(100), REMOTE_WRITE);
                MemoryRegion source = client.register(ByteBuffer.allocateDirect(200), Set.of());
                RemoteBuffer beyond = new RemoteBuffer(target.stag(), 0, 200);  // the region has 100
                client.post(new WriteRequest().gather(source.slice(0, 200)).target(beyond));
                awaitTrue(() -> client.statistics().messagesReceived(MessageType.TERMINATE) == 1);
                awaitTrue(() -> pair.serverVerbs().statistics().messagesSent(MessageType.TERMINATE) == 1);
                awaitTrue(() -> client.toString().contains("state=CLOSED")
                        && pair.serverVerbs().toString().contains("state=CLOSED"));
            }
            events = EventRecording.stop(recording, temp);
        }
        RecordedEvent sent = only(events, "io.extsock.TerminateSent", e -> e.getString("peer").equals(clientAddress));
        assertEquals("DDP", sent.getString("layer"));
        assertEquals(1, sent.getInt("errorType"));
        assertEquals(1, sent.getInt("errorCode"));
        assertEquals("DDP tagged buffer error: base or bounds violation", sent.getString("error"));
        assertTrue(sent.getString("detail").startsWith("terminated by this side"), sent.getString("detail"));

        RecordedEvent received = only(events, "io.extsock.TerminateReceived",
                e -> e.getString("peer").equals(serverAddress));
        assertEquals("DDP", received.getString("layer"));
        assertEquals(1, received.getInt("errorType"));
        assertEquals(1, received.getInt("errorCode"));
        assertEquals("DDP tagged buffer error: base or bounds violation", received.getString("error"));
        assertTrue(received.getString("detail").startsWith("terminated by the peer"), received.getString("detail"));
    }

    /**
     * A bulk write meets the first window (4 buffers of 64 KiB): the writer sends 3 and waits
     * for credits (the last is kept for a credit message). Its next Send says it waited, and the
     * reader's window doubles.
     */
    @Test
    void aBulkStreamWriteGrowsTheWindow() throws Exception {
        List<RecordedEvent> events;
        String clientAddress;
        int size = 2 << 20;
        try (Recording recording = EventRecording.start(StreamWindowGrownEvent.class)) {
            try (IwarpSocketPair pair = IwarpSocketPair.open()) {
                clientAddress = address(pair.client());
                IwarpConnection server = pair.serverVerbs();
                assertEquals(4 * 64 * 1024, server.statistics().streamWindow());
                CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                    try {
                        pair.client().getOutputStream().write(new byte[size]);
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                });
                // Nobody reads until the writer has spent all the credits it may spend.
                awaitTrue(() -> server.statistics().messagesReceived(MessageType.SEND) >= 3);
                InputStream in = pair.accepted().getInputStream();
                assertEquals(size, in.readNBytes(size).length);
                writer.get(30, TimeUnit.SECONDS);
                awaitTrue(() -> server.statistics().streamWindow() > 4 * 64 * 1024);  // the growth, after its event
            }
            events = EventRecording.stop(recording, temp);
        }
        List<RecordedEvent> grown = events.stream()
                .filter(e -> e.getEventType().getName().equals("io.extsock.StreamWindowGrown"))
                .filter(e -> e.getString("peer").equals(clientAddress))
                .sorted(java.util.Comparator.comparingInt(e -> e.getInt("oldSize")))  // a file is not in time order
                .collect(Collectors.toList());
        assertFalse(grown.isEmpty(), "no window growth recorded: " + events);
        assertEquals(256 * 1024, grown.get(0).getInt("oldSize"));
        assertEquals(512 * 1024, grown.get(0).getInt("newSize"));
        for (int i = 1; i < grown.size(); i++) {
            assertEquals(grown.get(i - 1).getInt("newSize"), grown.get(i).getInt("oldSize"));
            assertEquals(2 * grown.get(i).getInt("oldSize"), grown.get(i).getInt("newSize"));
        }
    }

    /**
     * One RDMA Write of 1 MiB and a Send of 100 bytes: the periodic event of each end says so,
     * while the connection runs (at the end of a recording's chunk: the periodic hook) and once
     * more as it closes. Two recordings: the one stopped while the connections run ends a chunk.
     */
    @Test
    void thePeriodicCountersMatchTheBytesMoved() throws Exception {
        int size = 1 << 20;
        String clientAddress;
        String serverAddress;
        long clientBytesSent;
        IwarpConnection client;
        IwarpConnection server;
        List<RecordedEvent> events;
        try (Recording recording = new Recording(); Recording chunk = new Recording()) {
            recording.enable(ConnectionStatisticsEvent.class).with("period", "everyChunk");
            recording.start();
            chunk.enable(ConnectionStatisticsEvent.class).with("period", "everyChunk");
            chunk.start();
            try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
                clientAddress = address(pair.client());
                serverAddress = address(pair.accepted());
                client = pair.clientVerbs();
                server = pair.serverVerbs();
                MemoryRegion target = server.register(ByteBuffer.allocateDirect(size), REMOTE_WRITE);
                MemoryRegion inbox = server.register(ByteBuffer.allocateDirect(100), EnumSet.of(Access.LOCAL_WRITE));
                MemoryRegion source = client.register(ByteBuffer.allocateDirect(size), Set.of());
                server.post(new ReceiveRequest().tag(1).scatter(inbox.slice(0, 100)));
                assertEquals(CompletionStatus.SUCCESS, client.submit(new WriteRequest().gather(source.slice(0, size))
                        .target(target.remote())).get(20, TimeUnit.SECONDS).status());
                assertEquals(CompletionStatus.SUCCESS, client.submit(new SendRequest().gather(source.slice(0, 100)))
                        .get(20, TimeUnit.SECONDS).status());
                WorkCompletion received = server.completions().take(20, TimeUnit.SECONDS);
                assertEquals(CompletionStatus.SUCCESS, received.status());  // so the Write before it arrived too
                clientBytesSent = client.statistics().bytesSent();
                assertEquals(clientBytesSent, server.statistics().bytesReceived());
                chunk.stop();  // ends the chunk: the periodic hook runs while both ends are connected
            }
            // An end may close on an engine thread (it saw the other's close first): CLOSED comes after its event.
            awaitTrue(() -> client.toString().contains("state=CLOSED") && server.toString().contains("state=CLOSED"));
            recording.stop();
            Path file = temp.resolve("statistics.jfr");
            recording.dump(file);
            events = RecordingFile.readAllEvents(file);
        }
        for (String state : List.of("CONNECTED", "CLOSED")) {
            RecordedEvent mine = last(events, e -> e.getString("local").equals(clientAddress)
                    && e.getString("state").equals(state));
            assertEquals(serverAddress, mine.getString("peer"));
            assertEquals(clientBytesSent, mine.getLong("bytesSent"));
            assertTrue(clientBytesSent > size + 100, "MPA framing counts too: " + clientBytesSent);
            assertEquals(1, mine.getLong("writesSent"), "ours alone: the RTR (a zero-length Write) is the protocol's");
            assertEquals(size, mine.getLong("writesPayloadSent"));
            assertEquals(1, mine.getLong("sendsSent"));
            assertEquals(100, mine.getLong("sendsPayloadSent"));
            assertEquals(0, mine.getLong("readRequestsSent"));
            assertEquals(0, mine.getLong("terminatesSent"));
            assertEquals(0, mine.getLong("bytesReceived"), "the responder sent nothing");
            assertEquals(0, mine.getLong("errors"));
            assertEquals(0, mine.getInt("streamWindow"), "no stream over this connection");

            RecordedEvent theirs = last(events, e -> e.getString("local").equals(serverAddress)
                    && e.getString("state").equals(state));
            assertEquals(clientAddress, theirs.getString("peer"));
            assertEquals(clientBytesSent, theirs.getLong("bytesReceived"));
            assertEquals(1, theirs.getLong("writesReceived"), "ours, not the RTR");
            assertEquals(size, theirs.getLong("writesPayloadReceived"));
            assertEquals(1, theirs.getLong("sendsReceived"));
            assertEquals(100, theirs.getLong("sendsPayloadReceived"));
            assertEquals(0, theirs.getLong("bytesSent"));
            assertEquals(0, theirs.getLong("errors"));
        }
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** A socket's local end as events name it. */
    static String address(Socket socket) {
        return socket.getLocalAddress().getHostAddress() + ":" + socket.getLocalPort();
    }

    private static RecordedEvent only(List<RecordedEvent> events, String name, Predicate<RecordedEvent> which) {
        List<RecordedEvent> found = events.stream().filter(e -> e.getEventType().getName().equals(name))
                .filter(which).collect(Collectors.toList());
        assertEquals(1, found.size(), "one " + name + " expected in " + events);
        return found.get(0);
    }

    private static RecordedEvent last(List<RecordedEvent> events, Predicate<RecordedEvent> which) {
        List<RecordedEvent> found = events.stream()
                .filter(e -> e.getEventType().getName().equals("io.extsock.ConnectionStatistics"))
                .filter(which).collect(Collectors.toList());
        assertFalse(found.isEmpty(), "no matching io.extsock.ConnectionStatistics in " + events);
        return found.get(found.size() - 1);
    }

    interface Condition {
        boolean holds() throws Exception;
    }

    /** Waits until the condition holds (the class's timeout bounds it). */
    static void awaitTrue(Condition condition) throws Exception {
        while (!condition.holds()) {
            Thread.sleep(5);  // a polling interval
        }
    }
}
