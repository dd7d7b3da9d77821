package io.extsock.core.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.engine.SoftwareIwarpProvider;
import io.extsock.spi.IwarpSession;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The stream's receive window starts small and grows only when the peer's writer had to wait
 * for it: a bulk writer widens it to the maximum, a request-response exchange leaves it alone.
 */
@Timeout(60)
class StreamWindowTest {

    private ServerSocketChannel listener;
    private SocketChannel initiatorChannel;
    private SocketChannel responderChannel;
    private IwarpStream writer;
    private IwarpStream reader;

    @BeforeEach
    void connect() throws Exception {
        SoftwareIwarpProvider provider = new SoftwareIwarpProvider();
        listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        initiatorChannel = SocketChannel.open(listener.getLocalAddress());
        responderChannel = listener.accept();
        CompletableFuture<IwarpSession> responding = CompletableFuture.supplyAsync(() -> {
            try {
                return provider.attach(responderChannel, false, Map.of());
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        writer = (IwarpStream) provider.attach(initiatorChannel, true, Map.of()).stream();
        reader = (IwarpStream) responding.get(20, TimeUnit.SECONDS).stream();
    }

    @AfterEach
    void close() throws Exception {
        writer.close();
        reader.close();
        initiatorChannel.close();
        responderChannel.close();
        listener.close();
    }

    @Test
    void requestResponseKeepsTheFirstWindow() throws Exception {
        byte[] request = new byte[64];
        byte[] response = new byte[64];
        CompletableFuture<Void> echo = CompletableFuture.runAsync(() -> {
            try {
                byte[] message = new byte[64];
                for (int i = 0; i < 500; i++) {
                    readFully(reader, message);
                    reader.write(message, 0, message.length);
                }
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        for (int i = 0; i < 500; i++) {
            request[0] = (byte) i;
            writer.write(request, 0, request.length);
            readFully(writer, response);
            assertArrayEquals(request, response);
        }
        echo.get(20, TimeUnit.SECONDS);
        assertEquals(IwarpStream.RECEIVE_BUFFERS, reader.receiveWindowBuffers());
        assertEquals(IwarpStream.RECEIVE_BUFFERS, writer.receiveWindowBuffers());
    }

    /**
     * The reader stops now and then until the writer is stuck on the window: each time, the
     * writer's next message says it waited, and the window doubles, up to its maximum. The
     * writer's own window, which only ever receives credits, stays as it was.
     */
    @Test
    void aWriterHeldUpByTheWindowWidensIt() throws Exception {
        int writes = 256;
        byte[] chunk = new byte[256 * 1024];
        AtomicLong written = new AtomicLong();
        CompletableFuture<byte[]> sent = CompletableFuture.supplyAsync(() -> {
            try {
                MessageDigest digest = MessageDigest.getInstance("SHA-256");
                Random random = new Random(7);
                for (int i = 0; i < writes; i++) {
                    random.nextBytes(chunk);
                    digest.update(chunk);
                    writer.write(chunk, 0, chunk.length);
                    written.addAndGet(chunk.length);
                }
                return digest.digest();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        byte[] buffer = new byte[64 * 1024];
        long total = (long) writes * chunk.length;
        long received = 0;
        int pauses = 0;
        while (received < total) {
            if (reader.receiveWindowBuffers() < IwarpStream.MAX_RECEIVE_BUFFERS && written.get() < total
                    && pauses < 20) {
                awaitStalled(written);  // the writer is waiting for credits now
                pauses++;
            }
            int n = reader.read(buffer, 0, (int) Math.min(buffer.length, total - received), 0);
            digest.update(buffer, 0, n);
            received += n;
        }
        assertArrayEquals(sent.get(20, TimeUnit.SECONDS), digest.digest(), "every byte, in order");
        assertEquals(IwarpStream.MAX_RECEIVE_BUFFERS, reader.receiveWindowBuffers(), "after " + pauses + " pauses");
        assertEquals(IwarpStream.RECEIVE_BUFFERS, writer.receiveWindowBuffers());
    }

    /** Returns once the writer's progress has stood still for 50 ms (it waits for the window). */
    private static void awaitStalled(AtomicLong written) throws InterruptedException {
        long last = written.get();
        while (true) {
            Thread.sleep(50);
            long now = written.get();
            if (now == last) {
                return;
            }
            last = now;
        }
    }

    private static void readFully(IwarpStream stream, byte[] into) throws Exception {
        for (int at = 0; at < into.length; ) {
            int n = stream.read(into, at, into.length - at, 0);
            assertTrue(n > 0, "end of stream too early");
            at += n;
        }
    }
}
