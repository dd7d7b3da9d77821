package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.condition.JRE.JAVA_21;

import io.extsock.contract.ThreadStacks;
import io.extsock.contract.VirtualThreads;
import io.extsock.core.UnreadOctets;
import io.extsock.core.engine.EngineProbe;
import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.WorkCompletion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledForJreRange;

/**
 * A connection used through its streams alone is read, as a TCP socket is, by the threads that
 * read it: once one has waited, what arrives while nobody waits stays in the socket (no wake-up
 * of the engine's progress thread a message), and {@code available()} receives it. Once the
 * application uses the verbs, the engine reads while nobody waits again, as one-sided
 * operations need; a virtual thread, which parks instead of reading, gets the engine too.
 */
@Timeout(60)
class IdleStreamReadingTest {

    @Test
    void whatArrivesWhileNobodyReadsWaitsInTheSocketUntilAvailableAsks() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open()) {
            InputStream in = pair.client().getInputStream();
            readAfterWaiting(pair, in);
            long receivedBefore = arrivesWhileNobodyWaits(pair, 100);

            assertEquals(receivedBefore, bytesReceived(pair), "nobody received from the socket while nobody waited");
            assertTrue(UnreadOctets.of(pair.client()) >= 100, "the octets still wait in the socket");
            assertEquals(100, eventuallyAvailable(in, 100), "available() received what the socket held");
            assertTrue(bytesReceived(pair) > receivedBefore, "available() received from the socket");
            assertEquals(100, in.readNBytes(100).length);
        }
    }

    /**
     * The engine learns that an application reads through a task it runs within a millisecond;
     * a wait may be over by then. Its connection must still be left to its readers. Twenty
     * connections, each whose first wait ends as soon as it began.
     */
    @Test
    void aWaitOverBeforeTheEngineLearnedOfItStillLeavesTheSocketToItsReaders() throws Exception {
        for (int i = 0; i < 20; i++) {
            try (IwarpSocketPair pair = IwarpSocketPair.open()) {
                InputStream in = pair.client().getInputStream();
                readAfterWaiting(pair, in, true);
                long receivedBefore = arrivesWhileNobodyWaits(pair, 100);

                assertEquals(receivedBefore, bytesReceived(pair), "connection " + i + ": nobody waited, yet the socket was read");
            }
        }
    }

    /**
     * The writer closes while most of what it wrote still waits in the sockets, and the reader,
     * whose engine no longer reads for it, pauses longer than a closed connection lingers (2 s)
     * before it reads on. Were a credit its reads return to reach the writer's closed socket
     * while the writer's tail was still unsent, Linux would answer with a reset that throws the
     * tail away. Every byte and the end of stream must arrive.
     */
    @Test
    void aReaderThatPausesAfterTheWriterClosedStillGetsEveryByte() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.builder()
                .clientOption(StandardSocketOptions.SO_RCVBUF, 16 * 1024)
                .serverOption(StandardSocketOptions.SO_SNDBUF, 1024 * 1024).open()) {
            InputStream in = pair.client().getInputStream();
            readAfterWaiting(pair, in);
            byte[] written = new byte[100 * 1024];  // within the window: the write returns at once
            new Random(3).nextBytes(written);
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    pair.accepted().getOutputStream().write(written);  // into the writer's send buffer
                    pair.accepted().close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });

            writer.get(10, TimeUnit.SECONDS);  // closed, its tail still in the sockets
            Thread.sleep(2_500);  // the pause this test is about, longer than the close lingers: no synchronisation

            assertArrayEquals(written, in.readNBytes(written.length));
            assertEquals(-1, in.read(), "the end of stream after the last byte");
        }
    }

    @Test
    void memoryRegisteredAfterAStreamWaitIsReadByThePeerWhileNobodyWaits() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open()) {
            readAfterWaiting(pair, pair.client().getInputStream());

            MemoryRegion exposed = pair.clientVerbs().register(ByteBuffer.allocateDirect(64),
                    EnumSet.of(Access.REMOTE_READ));
            exposed.buffer().put(63, (byte) 42);
            MemoryRegion sink = pair.serverVerbs().register(ByteBuffer.allocateDirect(64), EnumSet.of(Access.LOCAL_WRITE));
            WorkCompletion read = pair.serverVerbs().submit(new ReadRequest().tag(1).source(exposed.remote())
                    .sink(sink.slice(0, 64))).get(10, TimeUnit.SECONDS);

            assertEquals(CompletionStatus.SUCCESS, read.status(), read.toString());
            assertEquals(42, sink.buffer().get(63));
        }
    }

    @Test
    @EnabledForJreRange(min = JAVA_21)
    void aVirtualThreadReadsWhatArrivesAfterAPlatformThreadWaited() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open()) {
            InputStream in = pair.client().getInputStream();
            readAfterWaiting(pair, in);

            CompletableFuture<Integer> parkedRead = new CompletableFuture<>();
            Thread reader = VirtualThreads.start(() -> {
                try {
                    parkedRead.complete(in.read());
                } catch (IOException e) {
                    parkedRead.completeExceptionally(e);
                }
            });
            VirtualThreads.awaitBlocked(reader);
            pair.accepted().getOutputStream().write(9);

            assertEquals(9, parkedRead.get(10, TimeUnit.SECONDS));
        }
    }

    /** The client's platform thread reads one octet it had to wait for: the reading is then its own. */
    private static void readAfterWaiting(IwarpSocketPair pair, InputStream in) throws Exception {
        readAfterWaiting(pair, in, false);
    }

    /** @param atOnce the octet is sent the moment the reader is seen waiting (else a millisecond or so later) */
    private static void readAfterWaiting(IwarpSocketPair pair, InputStream in, boolean atOnce) throws Exception {
        CompletableFuture<Integer> firstRead = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try {
                firstRead.complete(in.read());
            } catch (IOException e) {
                firstRead.completeExceptionally(new UncheckedIOException(e));
            }
        }, "first-reader");
        reader.start();
        // A platform thread selects, RUNNABLE: its stack, not its state, says it waits.
        ThreadStacks.awaitInside(reader, "io.extsock.core.engine.ChannelDriver", "await", atOnce);
        pair.accepted().getOutputStream().write(1);
        assertEquals(1, firstRead.get(10, TimeUnit.SECONDS));
    }

    /**
     * The accepted end writes {@code count} octets once the client's engine has learned of the
     * wait and stopped watching the socket (it learns through a task it runs up to a millisecond
     * later), and they reach the client's socket while nobody waits; returns once the engine has
     * been through its loop since they arrived, where it would have read them had it watched.
     *
     * @return the octets the client end had received before the write
     */
    private static long arrivesWhileNobodyWaits(IwarpSocketPair pair, int count) throws Exception {
        EngineProbe engine = EngineProbe.of(pair.client());
        engine.awaitEngineStoppedReading();
        long receivedBefore = bytesReceived(pair);
        pair.accepted().getOutputStream().write(new byte[count]);
        UnreadOctets.await(pair.client(), count);
        engine.awaitLoopPassed();
        assertFalse(engine.engineReads(), "the engine took the reading back while nobody waited");
        return receivedBefore;
    }

    /**
     * Octets the client end has read from its socket so far (a statistics object is a snapshot).
     * Not its reads: a readiness the engine saw before it learned of a wait may still bring a
     * read that finds nothing.
     */
    private static long bytesReceived(IwarpSocketPair pair) throws IOException {
        return pair.clientVerbs().statistics().bytesReceived();
    }

    private static int eventuallyAvailable(InputStream in, int wanted) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int available = in.available();
        while (available < wanted && System.nanoTime() < deadline) {
            Thread.sleep(1);  // a polling interval
            available = in.available();
        }
        return available;
    }
}
