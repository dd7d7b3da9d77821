package io.extsock.core.stream;

import static io.extsock.core.memory.ConnectionBlocks.BASE_BLOCKS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.engine.SoftwareIwarpProvider;
import io.extsock.core.memory.DirectBufferPool;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Connections take their direct memory from a pool and give all of it back when closed, without
 * the garbage collector; the budget bounds window growth, and a refused growth leaves a stream
 * that works. Each test has a pool of its own, so counts are exact.
 */
@Timeout(120)
class ConnectionMemoryTest {

    private static final int BLOCK = DirectBufferPool.BLOCK_SIZE;

    /**
     * 200 connections in batches of 10, each carrying a byte each way, then closed (either end
     * first): every block comes back, and the blocks of one batch serve the next.
     */
    @Test
    void closedConnectionsGiveEveryBlockBack() throws Exception {
        DirectBufferPool pool = new DirectBufferPool(BLOCK, 64L << 20);
        SoftwareIwarpProvider provider = new SoftwareIwarpProvider(pool);
        int batches = 20;
        int perBatch = 10;
        for (int batch = 0; batch < batches; batch++) {
            List<StreamPair> pairs = new ArrayList<>();
            for (int i = 0; i < perBatch; i++) {
                pairs.add(StreamPair.open(provider));
            }
            assertEquals(2L * perBatch * BASE_BLOCKS * BLOCK, pool.inUseBytes(), pool.toString());
            for (int i = 0; i < perBatch; i++) {
                StreamPair pair = pairs.get(i);
                pair.writer.write(new byte[] {1}, 0, 1);
                assertEquals(1, pair.reader.read(new byte[1], 0, 1, 0));
                pair.reader.write(new byte[] {2}, 0, 1);
                assertEquals(1, pair.writer.read(new byte[1], 0, 1, 0));
                if (i % 2 == 0) {
                    pair.close();
                } else {  // the peer ends first: the responder reads end of stream, then closes
                    pair.writer.close();
                    assertEquals(-1, pair.reader.read(new byte[1], 0, 1, 0));
                    pair.close();
                }
            }
            awaitNoneInUse(pool);
        }
        assertEquals(0, pool.inUseBytes(), pool.toString());
        long leased = 2L * batches * perBatch * BASE_BLOCKS * BLOCK;
        assertTrue(pool.allocatedBytes() < leased / 5, "blocks were reused: " + pool);
        assertEquals(pool.allocatedBytes(), pool.idleBytes(), "every block is in the pool, none left to the GC");
    }

    /**
     * A budget of 4 blocks: a bulk writer's first wait widens the reader's window to 8 buffers,
     * the second would take it to 16 and is refused, and the window does not ask again at every
     * wait. Every byte still arrives, in order.
     */
    @Test
    void aSpentBudgetRefusesGrowthAndTheStreamStillWorks() throws Exception {
        DirectBufferPool pool = new DirectBufferPool(BLOCK, 4L * BLOCK);
        try (StreamPair pair = StreamPair.open(new SoftwareIwarpProvider(pool))) {
            BulkTransfer.run(pair.writer, pair.reader, 11);
            assertEquals(8, pair.reader.receiveWindowBuffers());
            // Asked for the 8 more at the first wait after the growth, and then at most once per
            // 1024 Sends (the transfer has 1280), however often the writer waited meanwhile.
            assertTrue(pool.refusedBlocks() == 8 || pool.refusedBlocks() == 16, pool.toString());
            assertEquals(4L * BLOCK, pool.growthBytes());
        }
        awaitNoneInUse(pool);
    }

    /** Without a budget to stop it, a connection's window still stops at its maximum: 16 buffers, 1 MiB. */
    @Test
    void aConnectionsWindowIsBoundedWithoutABudget() throws Exception {
        DirectBufferPool pool = new DirectBufferPool(BLOCK, Long.MAX_VALUE);
        try (StreamPair pair = StreamPair.open(new SoftwareIwarpProvider(pool))) {
            BulkTransfer.run(pair.writer, pair.reader, 11);
            assertEquals(IwarpStream.MAX_RECEIVE_BUFFERS, pair.reader.receiveWindowBuffers());
            assertEquals((long) (IwarpStream.MAX_RECEIVE_BUFFERS - IwarpStream.RECEIVE_BUFFERS) * BLOCK,
                    pool.growthBytes(), pool.toString());
            assertEquals((2L * BASE_BLOCKS + IwarpStream.MAX_RECEIVE_BUFFERS - IwarpStream.RECEIVE_BUFFERS) * BLOCK,
                    pool.inUseBytes());
            assertEquals(0, pool.refusedBlocks());
        }
        awaitNoneInUse(pool);
    }

    /**
     * A closed connection's memory goes back at once unless a thread is still inside its
     * receive or transmit work; then the progress thread gives it back right after.
     */
    private static void awaitNoneInUse(DirectBufferPool pool) throws InterruptedException {
        for (int i = 0; i < 2_000 && pool.inUseBytes() != 0; i++) {
            Thread.sleep(5);
        }
        assertEquals(0, pool.inUseBytes(), pool.toString());
    }
}
