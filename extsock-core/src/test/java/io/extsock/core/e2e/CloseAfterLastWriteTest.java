package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.MessageDigest;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * An echo server that closes right after its last write, as plain socket code does: every byte
 * still reaches the client, then its end of stream. The client's receive buffer is 4 KiB, so the
 * server's last bytes wait in its own send queue when it closes, while the client's engine
 * keeps returning stream credits as its application reads. A socket closed at once was reset by
 * those credits, which threw the waiting bytes away: the client read "Connection reset" in
 * every run, where a plain TCP echo loses nothing.
 */
@Timeout(60)
class CloseAfterLastWriteTest {

    private static final int TOTAL = 8 << 20;
    private static final int CHUNK = 64 * 1024;

    @RepeatedTest(3)
    void theLastBytesOfAnEndThatClosesAfterWritingArrive() throws Exception {
        // Threads of their own: the common pool has one thread on two cores, and the two block.
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try (ExtendedServerSocket server = new ExtendedServerSocket();
             ExtendedSocket client = new ExtendedSocket()) {
            server.setOption(IwarpOptions.IWARP_MODE, true);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            client.setOption(IwarpOptions.IWARP_MODE, true);
            // Before connecting: set later, the window scale agreed for the default buffer leaves
            // TCP itself crawling through zero windows.
            client.setReceiveBufferSize(4096);
            CompletableFuture<Void> echo = CompletableFuture.runAsync(() -> {
                try (Socket accepted = server.accept()) {
                    InputStream in = accepted.getInputStream();
                    OutputStream out = accepted.getOutputStream();
                    byte[] buffer = new byte[CHUNK];
                    for (int n; (n = in.read(buffer)) != -1; ) {
                        out.write(buffer, 0, n);
                    }
                    accepted.shutdownOutput();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }, threads);
            client.connect(server.getLocalSocketAddress());  // switches then: the server is accepting
            CompletableFuture<byte[]> sent = CompletableFuture.supplyAsync(() -> {
                try {
                    MessageDigest digest = MessageDigest.getInstance("SHA-256");
                    OutputStream out = client.getOutputStream();
                    Random random = new Random(TOTAL);
                    byte[] chunk = new byte[CHUNK];
                    for (int at = 0; at < TOTAL; at += CHUNK) {
                        random.nextBytes(chunk);
                        digest.update(chunk);
                        out.write(chunk);
                    }
                    client.shutdownOutput();
                    return digest.digest();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }, threads);
            MessageDigest received = MessageDigest.getInstance("SHA-256");
            InputStream in = client.getInputStream();
            byte[] buffer = new byte[CHUNK];
            long total = 0;
            for (int n; (n = in.read(buffer)) != -1; ) {
                received.update(buffer, 0, n);
                total += n;
            }
            assertEquals(TOTAL, total, "every byte echoed, then the end of stream");
            assertArrayEquals(sent.get(30, TimeUnit.SECONDS), received.digest(), "every byte, in order");
            echo.get(30, TimeUnit.SECONDS);
        } finally {
            threads.shutdownNow();
        }
    }
}
