package io.extsock.core.load;

import static io.extsock.core.memory.ConnectionBlocks.BASE_BLOCKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.engine.SoftwareIwarpProvider;
import io.extsock.core.memory.DirectBufferPool;
import io.extsock.core.stream.IwarpStream;
import io.extsock.core.verbs.QueuePairVerbs;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.SendRequest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many hostile peers at once, each doing what makes a window grow (full stream DATA Sends, the
 * last of each window flagged "my writer waited"), while our application reads everything: each
 * of our ends would take its window from 4 buffers to its maximum of 16, 768 KiB more each. The
 * JVM-wide budget (here 16 MiB, a pool of the test's own) is never exceeded by growth, whatever
 * the number of connections; no window passes its maximum; the growth refused is counted; and
 * every byte still arrives.
 *
 * <p>200 connections in the default suite, 1,000 with {@code -Dextsock.long=true} (both ends in
 * this JVM: 2,000 ends of 448 KiB base each, and 1.6 MB carried per connection).
 */
@Timeout(300)
class HostileGrowthBudgetTest {

    private static final int CONNECTIONS = Boolean.getBoolean("extsock.long") ? 1000 : 200;
    private static final int WORKERS = 8;
    private static final int BLOCK = DirectBufferPool.BLOCK_SIZE;
    private static final long BUDGET = 16L << 20;
    private static final int FULL = IwarpStream.BUFFER_SIZE - 4;
    private static final byte DATA = 1;
    private static final byte WAITED = 0x01;
    /** 4 -> 8 -> 16 buffers, and once more at the maximum. */
    private static final int ROUNDS = 3;

    @Test
    void growthOfManyHostileWindowsStaysWithinTheBudget() throws Exception {
        DirectBufferPool pool = new DirectBufferPool(BLOCK, BUDGET);
        SoftwareIwarpProvider provider = new SoftwareIwarpProvider(pool);
        List<PrivatePoolPair> pairs = new ArrayList<>();
        ExecutorService workers = Executors.newFixedThreadPool(WORKERS);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong mostGrowth = new AtomicLong();
        AtomicLong mostInUse = new AtomicLong();
        Thread sampler = new Thread(() -> {
            while (running.get()) {
                mostGrowth.accumulateAndGet(pool.growthBytes(), Math::max);
                mostInUse.accumulateAndGet(pool.inUseBytes(), Math::max);
                Thread.onSpinWait();
            }
        }, "pool-sampler");
        try (ServerSocketChannel listener = ServerSocketChannel.open()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), CONNECTIONS)) {
            long start = System.nanoTime();
            for (int i = 0; i < CONNECTIONS; i++) {
                pairs.add(PrivatePoolPair.connect(provider, listener));
            }
            long opened = System.nanoTime();
            sampler.start();
            Queue<String> failures = new ConcurrentLinkedQueue<>();
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < WORKERS; w++) {
                int first = w;
                done.add(workers.submit(() -> {
                    for (int i = first; i < CONNECTIONS; i += WORKERS) {
                        try {
                            growHostile(pairs.get(i));
                        } catch (Exception | AssertionError e) {
                            failures.add("connection " + i + ": " + e);
                        }
                    }
                }));
            }
            for (Future<?> future : done) {
                future.get(240, TimeUnit.SECONDS);
            }
            running.set(false);
            sampler.join();
            long grown = System.nanoTime();

            int[] windows = new int[IwarpStream.MAX_RECEIVE_BUFFERS + 1];
            for (PrivatePoolPair pair : pairs) {
                windows[pair.responderStream().receiveWindowBuffers()]++;
            }
            long unbounded = (long) CONNECTIONS * (IwarpStream.MAX_RECEIVE_BUFFERS - IwarpStream.RECEIVE_BUFFERS) * BLOCK;
            System.out.printf("%d hostile connections (opened in %d ms, grown in %d ms): growth at most %d KiB of a"
                    + " %d KiB budget (without one: %d KiB); pool in use at most %d KiB (base %d KiB); refused"
                    + " %d blocks; windows in buffers -> connections: %s; %s%n", CONNECTIONS,
                    (opened - start) / 1_000_000, (grown - opened) / 1_000_000, mostGrowth.get() / 1024,
                    BUDGET / 1024, unbounded / 1024, mostInUse.get() / 1024,
                    2L * CONNECTIONS * BASE_BLOCKS * BLOCK / 1024, pool.refusedBlocks(), histogram(windows), pool);

            assertEquals(List.of(), List.copyOf(failures));
            assertTrue(mostGrowth.get() <= BUDGET, "growth " + mostGrowth.get() + " over the budget " + BUDGET);
            assertTrue(mostInUse.get() <= 2L * CONNECTIONS * BASE_BLOCKS * BLOCK + BUDGET,
                    "in use " + mostInUse.get() + " over the bases and the budget");
            assertTrue(pool.refusedBlocks() > 0, "the budget was put to the test");
            assertTrue(mostGrowth.get() > BUDGET / 2, "windows grew as far as the budget let them");
        } finally {
            running.set(false);
            workers.shutdownNow();
            for (PrivatePoolPair pair : pairs) {
                pair.close();
            }
        }
        for (int i = 0; i < 4_000 && pool.inUseBytes() != 0; i++) {
            Thread.sleep(5);  // a polling interval
        }
        assertEquals(0, pool.inUseBytes(), "every block back at close: " + pool);
    }

    /**
     * As in HostileWindowGrowthTest: each round fills all but one of our buffers with full
     * messages, the last flagged "waited"; our application reads them all, then a 1-octet
     * message lets the growth decision be seen.
     */
    private static void growHostile(PrivatePoolPair pair) throws IOException {
        QueuePairVerbs hostile = pair.hostileVerbs();
        IwarpStream ours = pair.responderStream();
        ByteBuffer full = ByteBuffer.allocateDirect(4 + FULL);
        full.put(DATA).put((byte) 0).putShort((short) 0).put(new byte[FULL]).flip();
        ByteBuffer flagged = ByteBuffer.allocateDirect(4 + FULL);
        flagged.put(DATA).put(WAITED).putShort((short) 0).put(new byte[FULL]).flip();
        ByteBuffer dot = ByteBuffer.allocateDirect(5);
        dot.put(DATA).put((byte) 0).putShort((short) 0).put((byte) '.').flip();
        MemoryRegion fullRegion = hostile.register(full, Set.of());
        MemoryRegion flaggedRegion = hostile.register(flagged, Set.of());
        MemoryRegion dotRegion = hostile.register(dot, Set.of());
        byte[] sink = new byte[FULL];
        for (int round = 0; round < ROUNDS; round++) {
            int buffers = ours.receiveWindowBuffers();
            for (int i = 0; i < buffers - 1; i++) {
                MemoryRegion region = i == buffers - 2 ? flaggedRegion : fullRegion;
                hostile.post(new SendRequest().gather(region.slice(0, 4 + FULL)));
            }
            for (int i = 0; i < buffers - 1; i++) {
                pair.readFromResponder(sink, FULL);
            }
            hostile.post(new SendRequest().gather(dotRegion.slice(0, 5)));
            pair.readFromResponder(sink, 1);
            assertEquals('.', sink[0]);
            assertTrue(ours.receiveWindowBuffers() <= IwarpStream.MAX_RECEIVE_BUFFERS);
            hostile.completions().poll(completion -> { }, Integer.MAX_VALUE);  // not what is tested
        }
    }

    private static String histogram(int[] windows) {
        StringBuilder text = new StringBuilder("{");
        for (int buffers = 0; buffers < windows.length; buffers++) {
            if (windows[buffers] > 0) {
                text.append(text.length() > 1 ? ", " : "").append(buffers).append('=').append(windows[buffers]);
            }
        }
        return text.append('}').toString();
    }
}
