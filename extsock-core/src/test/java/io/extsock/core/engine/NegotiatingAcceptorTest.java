package io.extsock.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.core.events.NegotiationFailedEvent;
import io.extsock.core.memory.DirectBufferPool;
import io.extsock.internal.IwarpOptionValues;
import io.extsock.spi.AcceptedAhead;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link NegotiatingAcceptor}'s limits and records, with a pending limit small enough to reach:
 * stalled negotiations past the limit wait in the kernel's backlog, not in memory, and each one
 * that ends at its MPA timeout is recorded as a failed negotiation.
 */
@Timeout(60)
class NegotiatingAcceptorTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final int STALL_TIMEOUT_MILLIS = 1_500;

    @TempDir
    Path temp;

    @Test
    void pastThePendingLimitConnectionsWaitInTheKernelUntilAStallerTimesOut() throws Exception {
        ServerSocketChannel listener = listener();
        int port = ((InetSocketAddress) listener.getLocalAddress()).getPort();
        List<Socket> stallers = new ArrayList<>();
        try (NegotiatingAcceptor acceptor = NegotiatingAcceptor.start(listener, settings(), 50,
                DirectBufferPool.shared(), 3)) {
            for (int i = 0; i < 3; i++) {
                stallers.add(new Socket(LOOPBACK, port));  // connected, and silent: three pending
            }
            CompletableFuture<ExtendedSocket> honest = CompletableFuture.supplyAsync(() -> connect(port));
            assertThrows(TimeoutException.class, () -> honest.get(STALL_TIMEOUT_MILLIS / 3, TimeUnit.MILLISECONDS),
                    "a fourth negotiation waits while three are pending");
            try (ExtendedSocket client = honest.get(20, TimeUnit.SECONDS)) {  // the stallers timed out
                AcceptedAhead accepted = acceptor.take(10_000);
                assertEquals(client.getLocalPort(), ((InetSocketAddress) accepted.channel().getRemoteAddress()).getPort());
                assertTrue(accepted.session() != null, "switched");
                accepted.session().stream().close();
            }
            for (Socket staller : stallers) {
                staller.setSoTimeout(10_000);
                assertEquals(-1, readEndOrReset(staller.getInputStream()), "closed at its MPA timeout");
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
        try (Recording recording = new Recording();
             NegotiatingAcceptor acceptor = NegotiatingAcceptor.start(listener, settings(), 50,
                     DirectBufferPool.shared());
             Socket staller = new Socket(LOOPBACK, port)) {
            recording.enable(NegotiationFailedEvent.class);
            recording.start();
            staller.getOutputStream().write("MPA ID Req Fr".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            staller.setSoTimeout(10_000);
            assertEquals(-1, readEndOrReset(staller.getInputStream()));
            assertThrows(java.net.SocketTimeoutException.class, () -> acceptor.take(100), "never taken");
            recording.stop();
            Path file = Files.createTempFile(temp, "events", ".jfr");
            recording.dump(file);
            events = RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().equals("io.extsock.NegotiationFailed"))
                    .collect(Collectors.toList());
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
        return ConnectionSettings.from(Map.of(IwarpOptions.MPA_TIMEOUT, STALL_TIMEOUT_MILLIS,
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

    private static int readEndOrReset(InputStream in) throws IOException {
        try {
            while (in.read() >= 0) {
                // nothing is expected
            }
            return -1;
        } catch (SocketException reset) {
            assertTrue(String.valueOf(reset.getMessage()).toLowerCase().contains("reset"), reset.toString());
            return -1;
        }
    }
}
