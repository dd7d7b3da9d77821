package io.extsock.core.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.spi.IwarpSession;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The engine turns Nagle's algorithm off on the TCP connections it takes over, as siw does. */
@Timeout(30)
class NagleOffTest {

    @Test
    void bothEndsOfASwitchedConnectionSendWithoutDelay() throws Exception {
        SoftwareIwarpProvider provider = new SoftwareIwarpProvider();
        try (ServerSocketChannel listener = ServerSocketChannel.open()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel initiator = SocketChannel.open(listener.getLocalAddress());
             SocketChannel responder = listener.accept()) {
            assertFalse(initiator.getOption(StandardSocketOptions.TCP_NODELAY), "TCP's default: Nagle on");
            CompletableFuture<IwarpSession> responding = CompletableFuture.supplyAsync(() -> {
                try {
                    return provider.attach(responder, false, Map.of());
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            IwarpSession initiating = provider.attach(initiator, true, Map.of());
            IwarpSession responded = responding.get(20, TimeUnit.SECONDS);
            assertTrue(initiator.getOption(StandardSocketOptions.TCP_NODELAY));
            assertTrue(responder.getOption(StandardSocketOptions.TCP_NODELAY));
            initiating.stream().close();
            responded.stream().close();
        }
    }
}
