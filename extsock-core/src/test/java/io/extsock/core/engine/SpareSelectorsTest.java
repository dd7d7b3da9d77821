package io.extsock.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Selector given back when its connection ends waits, cleaned, for the next connection's
 * waits; spares are few and do not outlive their idle time. The waits are guards, not timings.
 */
@Timeout(60)
class SpareSelectorsTest {

    @Test
    void aSelectorGivenBackWatchesTheNextConnectionAndNothingOfTheLast() throws Exception {
        try (ServerSocketChannel listener = listening();
             SocketChannel first = connected(listener);
             SocketChannel firstPeer = listener.accept();
             SocketChannel second = connected(listener);
             SocketChannel secondPeer = listener.accept()) {
            Selector selector = SpareSelectors.watching(first);
            firstPeer.write(ByteBuffer.wrap(new byte[] {1}));  // the last connection is readable
            selector.wakeup();  // and a wake-up meant for its last waiter is pending
            SpareSelectors.giveBack(selector);
            assertTrue(selector.isOpen());
            assertFalse(first.isRegistered(), "the ended connection's key went with it");

            Selector again = SpareSelectors.watching(second);
            assertSame(selector, again, "the spare was taken");
            assertEquals(1, again.keys().size());
            assertEquals(0, again.select(50), "the old connection's input does not show");
            secondPeer.write(ByteBuffer.wrap(new byte[] {2}));
            assertEquals(1, again.select(10_000), "the new connection's input does");
            again.close();
        }
    }

    @Test
    void sparesBeyondTheMostAreClosedAndTheRestOnceIdle() throws Exception {
        List<Selector> selectors = new ArrayList<>();
        for (int i = 0; i < SpareSelectors.MOST_SPARES + 5; i++) {
            selectors.add(Selector.open());
        }
        for (Selector selector : selectors) {
            SpareSelectors.giveBack(selector);
        }
        assertTrue(SpareSelectors.count() <= SpareSelectors.MOST_SPARES);
        long closed = selectors.stream().filter(selector -> !selector.isOpen()).count();
        assertTrue(closed >= 5, "only " + closed + " of the surplus were closed");

        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10 + SpareSelectors.IDLE_MILLIS / 1000);
        while (SpareSelectors.count() > 0 && System.nanoTime() - giveUp < 0) {
            Thread.sleep(20);  // a polling interval
        }
        assertEquals(0, SpareSelectors.count(), "idle spares were kept");
        for (Selector selector : selectors) {
            assertFalse(selector.isOpen(), "an idle spare's descriptors are still open");
        }
    }

    private static ServerSocketChannel listening() throws Exception {
        ServerSocketChannel listener = ServerSocketChannel.open();
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return listener;
    }

    private static SocketChannel connected(ServerSocketChannel listener) throws Exception {
        SocketChannel channel = SocketChannel.open(listener.getLocalAddress());
        channel.configureBlocking(false);
        return channel;
    }
}
