package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.ClosedByInterruptException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A platform thread whose switch waits for the peer's MPA Reply, and is interrupted, ends the
 * switch as an interrupted channel read ends: the connection closes, and the connect fails with
 * {@link ClosedByInterruptException}, long before the MPA timeout.
 */
@Timeout(60)
class InterruptedSwitchTest {

    @Test
    void anInterruptEndsASwitchThatWaitsForTheReply() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             ExtendedSocket client = new ExtendedSocket()) {
            client.setOption(IwarpOptions.IWARP_MODE, true);
            client.setOption(IwarpOptions.MPA_TIMEOUT, 30_000);
            AtomicReference<Thread> connecting = new AtomicReference<>();
            CompletableFuture<Void> connect = new CompletableFuture<>();
            Thread thread = new Thread(() -> {
                connecting.set(Thread.currentThread());
                try {
                    client.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), silent.getLocalPort()));
                    connect.complete(null);
                } catch (Throwable e) {
                    connect.completeExceptionally(e);
                }
            }, "switches-and-is-interrupted");
            thread.start();
            try (Socket accepted = silent.accept()) {
                // The Request arrived: the client now waits for a Reply that never comes.
                accepted.getInputStream().readNBytes(16);
                thread.interrupt();
                ExecutionException failed = assertThrows(ExecutionException.class,
                        () -> connect.get(10, TimeUnit.SECONDS));
                assertInstanceOf(ClosedByInterruptException.class, failed.getCause());
                assertTrue(client.isClosed(), "the socket closes with the switch it could not finish");
                accepted.getInputStream().readAllBytes();  // the rest of the Request, then the close
            }
            thread.join(10_000);
        }
    }
}
