package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedSocket;
import io.extsock.IwarpNegotiationException;
import io.extsock.IwarpOptions;
import io.extsock.testkit.logging.RecordedLogs;
import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.MessageType;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.WriteRequest;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine's DEBUG lines (System.Logger, which java.util.logging backs by default: DEBUG is
 * FINE there): every state change of a connection, credit stalls, window growth, Terminates.
 */
@Timeout(60)
class DebugLoggingTest {

    /** Held here: java.util.logging keeps loggers weakly, and a collected one forgets its level. */
    private final Logger engine = Logger.getLogger("io.extsock.core");
    private final RecordedLogs handler = new RecordedLogs();
    private Level levelBefore;

    @BeforeEach
    void listen() {
        levelBefore = engine.getLevel();
        engine.setLevel(Level.FINE);
        handler.setLevel(Level.ALL);
        engine.addHandler(handler);
    }

    @AfterEach
    void stopListening() {
        engine.removeHandler(handler);
        engine.setLevel(levelBefore);
    }

    @Test
    void aConnectionsLifeIsLogged() throws Exception {
        String client;
        String server;
        try (IwarpSocketPair pair = IwarpSocketPair.open()) {
            client = JfrEventsTest.address(pair.client());
            server = JfrEventsTest.address(pair.accepted());
            int size = 1 << 20;
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    pair.client().getOutputStream().write(new byte[size]);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            // Nobody reads until the writer spent its credits: it stalls, then the window grows.
            JfrEventsTest.awaitTrue(() -> pair.serverVerbs().statistics().messagesReceived(MessageType.SEND) >= 3);
            pair.accepted().getInputStream().readNBytes(size);
            writer.get(20, TimeUnit.SECONDS);
        }
        assertLogged("io.extsock.core.engine.SoftwareIwarpProvider", "iWARP connection to " + server
                + " negotiating (MPA initiator, local " + client + ")");
        assertLogged("io.extsock.core.engine.SoftwareIwarpProvider", "iWARP connection to " + client
                + " negotiating (MPA responder");
        assertLogged("io.extsock.core.engine.SoftwareIwarpProvider", "iWARP connection to " + server
                + " connected in IWARP_MODE in ");
        assertLogged("io.extsock.core.stream.StreamOutput", "stream writer to " + server
                + " blocked: waiting for credits (1 left, 2 needed)");
        assertLogged("io.extsock.core.stream.StreamInput", "stream window for " + client
                + " grown from 262144 to 524288 bytes (8 buffers)");
        assertLogged("io.extsock.core.verbs.QueuePair", "iWARP connection to " + server
                + " terminating: the connection was closed");
        assertLogged("io.extsock.core.engine.ChannelDriver", "iWARP connection to " + server
                + " closed: the connection was closed");
    }

    @Test
    void terminatesAreLoggedOnBothSides() throws Exception {
        String client;
        String server;
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            client = JfrEventsTest.address(pair.client());
            server = JfrEventsTest.address(pair.accepted());
            IwarpConnection verbs = pair.clientVerbs();
            MemoryRegion target = pair.serverVerbs().register(ByteBuffer.allocateDirect(100),
                    EnumSet.of(Access.REMOTE_WRITE));
            MemoryRegion source = verbs.register(ByteBuffer.allocateDirect(200), Set.of());
            verbs.post(new WriteRequest().gather(source.slice(0, 200)).target(new RemoteBuffer(target.stag(), 0, 200)));
            JfrEventsTest.awaitTrue(() -> verbs.toString().contains("state=CLOSED")
                    && pair.serverVerbs().toString().contains("state=CLOSED"));
        }
        assertLogged("io.extsock.core.verbs.QueuePair", "Terminate sent to " + client
                + ": layer DDP, type 1, code 0x1 (DDP tagged buffer error: base or bounds violation): terminated by"
                + " this side");
        assertLogged("io.extsock.core.verbs.QueuePair", "Terminate received from " + server
                + ": layer DDP, type 1, code 0x1 (DDP tagged buffer error: base or bounds violation)");
        assertLogged("io.extsock.core.verbs.QueuePair", "iWARP connection to " + client
                + " terminating: terminated by this side");
        assertLogged("io.extsock.core.verbs.QueuePair", "iWARP connection to " + server
                + " terminating: terminated by the peer: DDP tagged buffer error: base or bounds violation");
    }

    @Test
    void aFailedSwitchIsLogged() throws Exception {
        try (ServerSocket plain = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> peer = CompletableFuture.runAsync(() -> {
                try (Socket socket = plain.accept(); OutputStream out = socket.getOutputStream()) {
                    out.write("SSH-2.0-OpenSSH\r\n".getBytes(StandardCharsets.US_ASCII));
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            try (ExtendedSocket socket = new ExtendedSocket()) {
                socket.setOption(IwarpOptions.IWARP_MODE, true);
                try {
                    socket.connect(plain.getLocalSocketAddress());
                    throw new AssertionError("a plain peer was taken for an iWARP one");
                } catch (IwarpNegotiationException expected) {
                    // logged, below
                }
            }
            peer.get(20, TimeUnit.SECONDS);
            assertLogged("io.extsock.core.engine.SoftwareIwarpProvider", "iWARP connection to 127.0.0.1:"
                    + plain.getLocalPort() + " closed: negotiation failed (NOT_AN_IWARP_PEER) after ");
        }
    }

    private void assertLogged(String logger, String start) throws Exception {
        // The closing side logs from the engine's threads: wait for the line (the class's timeout bounds it).
        JfrEventsTest.awaitTrue(() -> handler.first(r -> r.getLoggerName().equals(logger) && r.getLevel() == Level.FINE
                && r.getMessage().startsWith(start)).isPresent());
    }
}
