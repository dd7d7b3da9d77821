package io.extsock.core.engine;

import static io.extsock.core.e2e.PeerClose.assertClosedByPeer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.core.e2e.EventRecording;
import io.extsock.core.events.NegotiationFailedEvent;
import io.extsock.core.memory.DirectBufferPool;
import io.extsock.internal.IwarpOptionValues;
import io.extsock.spi.AcceptedAhead;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link NegotiatingAcceptor}'s limits and records, with a pending limit small enough to reach:
 * past it a new connection ends the oldest pending negotiation, and a negotiation that ends at its
 * MPA timeout is recorded as a failed one.
 */
@Timeout(60)
class NegotiatingAcceptorTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final int STALL_TIMEOUT_MILLIS = 1_500;
    private static final int LONG_STALL_MILLIS = 30_000;

    @TempDir
    Path temp;

    @Test
    void pastThePendingLimitANewConnectionEndsTheOldestPendingNegotiation() throws Exception {
        ServerSocketChannel listener = listener();
        int port = ((InetSocketAddress) listener.getLocalAddress()).getPort();
        List<Socket> stallers = new ArrayList<>();
        try (NegotiatingAcceptor acceptor = NegotiatingAcceptor.start(listener, settings(LONG_STALL_MILLIS), 50,
                DirectBufferPool.shared(), 3)) {
            for (int i = 0; i < 3; i++) {
                Socket staller = new Socket(LOOPBACK, port);  // connected, and silent: three pending
                staller.setSoTimeout(10_000);
                stallers.add(staller);
            }
            try (ExtendedSocket client = connect(port)) {
                AcceptedAhead accepted = acceptor.take(10_000);
                assertEquals(client.getLocalPort(), ((InetSocketAddress) accepted.channel().getRemoteAddress()).getPort());
                assertTrue(accepted.session() != null, "switched");
                accepted.session().stream().close();
            }
            assertClosedByPeer(stallers.get(0), "the oldest made room");
            for (Socket younger : stallers.subList(1, 3)) {
                younger.setSoTimeout(200);
                assertThrows(SocketTimeoutException.class, () -> younger.getInputStream().read(),
                        "the younger stallers are still pending (their MPA timeout is " + LONG_STALL_MILLIS + " ms)");
            }
        } finally {
            for (Socket staller : stallers) {
                staller.close();
            }
        }
        assertFalse(listener.isOpen(), "closing the acceptor closed the listener");
    }

    @Test
    void aNegotiationThatTimesOutAheadOfAcceptIsRecordedAsFailed() throws Exception {
        List<RecordedEvent> events;
        ServerSocketChannel listener = listener();
        int port = ((InetSocketAddress) listener.getLocalAddress()).getPort();
        try (Recording recording = EventRecording.start(NegotiationFailedEvent.class);
             NegotiatingAcceptor acceptor = NegotiatingAcceptor.start(listener, settings(), 50,
                     DirectBufferPool.shared());
             Socket staller = new Socket(LOOPBACK, port)) {
            staller.getOutputStream().write("MPA ID Req Fr".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            staller.setSoTimeout(10_000);
            assertClosedByPeer(staller, "the timed-out staller");
            assertThrows(SocketTimeoutException.class, () -> acceptor.take(100), "never taken");
            events = EventRecording.named(EventRecording.stop(recording, temp), "io.extsock.NegotiationFailed");
        }
        assertEquals(1, events.size(), events.toString());
        assertEquals("TIMEOUT", events.get(0).getString("reason"));
        assertEquals("responder", events.get(0).getString("role"));
        assertTrue(events.get(0).getString("message").contains("MPA ID Req Fr"), events.get(0).getString("message"));
    }

    @Test
    void takeAfterCloseSaysTheSocketIsClosed() throws Exception {
        NegotiatingAcceptor acceptor = NegotiatingAcceptor.start(listener(), settings(), 50, DirectBufferPool.shared());
        acceptor.close();
        SocketException closed = assertThrows(SocketException.class, () -> acceptor.take(0));
        assertEquals("Socket is closed", closed.getMessage());
    }

    private static ServerSocketChannel listener() throws IOException {
        ServerSocketChannel listener = ServerSocketChannel.open();
        listener.bind(new InetSocketAddress(LOOPBACK, 0), 50);
        return listener;
    }

    private static ConnectionSettings settings() {
        return settings(STALL_TIMEOUT_MILLIS);
    }

    private static ConnectionSettings settings(int mpaTimeoutMillis) {
        return ConnectionSettings.from(Map.of(IwarpOptions.MPA_TIMEOUT, mpaTimeoutMillis,
                IwarpOptionValues.NO_EARLIER_STREAM, Boolean.TRUE));
    }

    private static ExtendedSocket connect(int port) {
        try {
            ExtendedSocket client = new ExtendedSocket();
            client.setOption(IwarpOptions.IWARP_MODE, true);
            client.setOption(IwarpOptions.MPA_TIMEOUT, 15_000);
            client.connect(new InetSocketAddress(LOOPBACK, port), 10_000);
            return client;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
