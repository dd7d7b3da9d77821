package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.verbs.MessageType;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The initiator's RTR (RFC 6581), when it is all there is to send, waits a moment for the
 * application's first message and goes out in the same write; an application that neither sends
 * nor waits still gets it out, so that the responder may send.
 */
@Timeout(60)
class ReadyToReceiveHoldTest {

    private static final int CONNECTIONS = 20;

    @Test
    void theRtrGoesOutWithTheFirstMessage() throws Exception {
        byte[] message = "first".getBytes(StandardCharsets.US_ASCII);
        ExecutorService acceptor = Executors.newSingleThreadExecutor();
        try (ExtendedServerSocket server = listening()) {
            int together = 0;
            for (int i = 0; i < CONNECTIONS; i++) {
                CompletableFuture<byte[]> received = CompletableFuture.supplyAsync(() -> {
                    try (Socket accepted = server.accept()) {
                        return accepted.getInputStream().readNBytes(message.length);
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                }, acceptor);
                try (ExtendedSocket client = new ExtendedSocket()) {
                    client.setOption(IwarpOptions.IWARP_MODE, true);
                    client.connect(server.getLocalSocketAddress());
                    client.getOutputStream().write(message);
                    assertArrayEquals(message, received.get(20, TimeUnit.SECONDS));
                    long writes = client.iwarp().statistics().socketWrites();
                    assertTrue(writes == 1 || writes == 2, "the RTR and the message took " + writes + " writes");
                    together += writes == 1 ? 1 : 0;
                }
            }
            // Held for a millisecond or two, which a stalled machine may overrun now and then.
            assertTrue(together >= CONNECTIONS / 2, "the RTR went out with the first message in " + together
                    + " of " + CONNECTIONS + " connections");
        } finally {
            acceptor.shutdownNow();
        }
    }

    @Test
    void anInitiatorThatNeitherSendsNorWaitsStillLetsTheResponderSend() throws Exception {
        byte[] greeting = "hello".getBytes(StandardCharsets.US_ASCII);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try (ExtendedServerSocket server = listening(); ExtendedSocket client = new ExtendedSocket()) {
            client.setOption(IwarpOptions.IWARP_MODE, true);
            // The accepted socket negotiates at its first use, which the connect waits for.
            CompletableFuture<Void> connected = CompletableFuture.runAsync(() -> {
                try {
                    client.connect(server.getLocalSocketAddress());
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }, threads);
            try (ExtendedSocket accepted = (ExtendedSocket) server.accept()) {
                // The responder's Send waits for the RTR, and so may its writer.
                CompletableFuture<Void> written = CompletableFuture.runAsync(() -> {
                    try {
                        accepted.getOutputStream().write(greeting);
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                }, threads);
                connected.get(20, TimeUnit.SECONDS);
                // The client's application is idle: only the hold's end can send its RTR. (Its
                // octets are counted just after its write returns, which the responder's answer
                // may beat: wait for both counts.)
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while ((accepted.iwarp().statistics().messagesSent(MessageType.SEND) == 0
                        || client.iwarp().statistics().bytesSent() == 0) && System.nanoTime() < deadline) {
                    Thread.sleep(1);  // a polling interval
                }
                assertTrue(accepted.iwarp().statistics().messagesSent(MessageType.SEND) > 0,
                        "the responder's message never went out: no RTR came");
                assertTrue(client.iwarp().statistics().bytesSent() > 0, "the RTR went out");
                assertEquals(0, client.iwarp().statistics().messagesSent(MessageType.RDMA_WRITE),
                        "the RTR, a zero-length Write, is the protocol's: no application Write");
                assertEquals(0, accepted.iwarp().statistics().messagesReceived(MessageType.RDMA_WRITE),
                        "the RTR received is no application Write either");
                written.get(20, TimeUnit.SECONDS);
                InputStream in = client.getInputStream();
                assertArrayEquals(greeting, in.readNBytes(greeting.length));
            }
        } finally {
            threads.shutdownNow();
        }
    }

    private static ExtendedServerSocket listening() throws Exception {
        ExtendedServerSocket server = new ExtendedServerSocket();
        server.setOption(IwarpOptions.IWARP_MODE, true);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return server;
    }
}
