package io.extsock.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.IwarpNegotiationException;
import io.extsock.core.ThreadProbe;
import io.extsock.spi.AcceptedAhead;
import io.extsock.spi.NotAnIwarpPeerException;
import java.io.IOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The queue between a listener's negotiations and the application's accept, without a socket connected. */
@Timeout(30)
class AcceptedQueueTest {

    private final AtomicInteger roomAgain = new AtomicInteger();
    private final AcceptedQueue queue = new AcceptedQueue(2, roomAgain::incrementAndGet);
    private final List<SocketChannel> channels = new java.util.ArrayList<>();

    @AfterEach
    void closeChannels() throws IOException {
        for (SocketChannel channel : channels) {
            channel.close();
        }
    }

    private AcceptedAhead connection() throws IOException {
        SocketChannel channel = SocketChannel.open();
        channels.add(channel);
        return new AcceptedAhead(channel, null, new NotAnIwarpPeerException(
                new IwarpNegotiationException(IwarpNegotiationException.Reason.TIMEOUT, "a plain peer", null), new byte[0]));
    }

    @Test
    void connectionsAreTakenInTheOrderTheyCame() throws IOException {
        AcceptedAhead first = connection();
        AcceptedAhead second = connection();
        queue.add(first);
        queue.add(second);

        assertSame(first, queue.take(0));
        assertSame(second, queue.take(0));
    }

    @Test
    void aFullQueueHasNoRoomAndATakeFromItCallsForMore() throws IOException {
        queue.add(connection());
        assertTrue(queue.hasRoom());
        queue.add(connection());
        assertFalse(queue.hasRoom(), "backlog 2 reached");

        queue.take(0);
        assertEquals(1, roomAgain.get(), "room again: the acceptor must accept more");
        queue.take(0);
        assertEquals(1, roomAgain.get(), "the queue was not full: nothing to say");
    }

    @Test
    void aTakeWithATimeoutEndsAsServerSocketAcceptDoes() {
        SocketTimeoutException timedOut = assertThrows(SocketTimeoutException.class, () -> queue.take(1));
        assertEquals("Accept timed out", timedOut.getMessage());
    }

    @Test
    void aTakeWaitingWhenTheSocketClosesFails() throws Exception {
        CompletableFuture<Throwable> ended = new CompletableFuture<>();
        Thread taker = new Thread(() -> ended.complete(assertThrows(SocketException.class, () -> queue.take(0))));
        taker.start();
        ThreadProbe.awaitWaitingInside(taker, "io.extsock.core.engine.AcceptedQueue", "take");

        queue.close();

        assertEquals("Socket is closed", ended.get(10, TimeUnit.SECONDS).getMessage());
        taker.join();
    }

    @Test
    void aConnectionAddedAfterTheCloseIsDiscarded() throws IOException {
        queue.close();
        AcceptedAhead late = connection();

        queue.add(late);

        assertFalse(late.channel().isOpen(), "nobody will take it: closed");
        assertThrows(SocketException.class, () -> queue.take(0));
    }

    @Test
    void anAcceptorThatStoppedSaysWhyAndHandsBackWhatNobodyTook() throws IOException {
        AcceptedAhead waiting = connection();
        queue.add(waiting);

        List<AcceptedAhead> untaken = queue.stop(new IOException("too many open files"));

        assertEquals(List.of(waiting), untaken);
        SocketException stopped = assertThrows(SocketException.class, () -> queue.take(0));
        assertEquals("the server socket stopped accepting: too many open files", stopped.getMessage());
        assertEquals("too many open files", stopped.getCause().getMessage());
    }
}
