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
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
        int pauses = BulkTransfer.run(writer, reader, 7);
        assertEquals(IwarpStream.MAX_RECEIVE_BUFFERS, reader.receiveWindowBuffers(), "after " + pauses + " pauses");
        assertEquals(IwarpStream.RECEIVE_BUFFERS, writer.receiveWindowBuffers());
    }

    private static void readFully(IwarpStream stream, byte[] into) throws Exception {
        for (int at = 0; at < into.length; ) {
            int n = stream.read(into, at, into.length - at, 0);
            assertTrue(n > 0, "end of stream too early");
            at += n;
        }
    }
}
