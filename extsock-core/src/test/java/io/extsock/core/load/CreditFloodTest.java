package io.extsock.core.load;

import static io.extsock.core.memory.ConnectionBlocks.BASE_BLOCKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.engine.SoftwareIwarpProvider;
import io.extsock.core.memory.DirectBufferPool;
import io.extsock.core.stream.IwarpStream;
import io.extsock.core.verbs.QueuePairVerbs;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.MessageType;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A peer that ignores credits: it keeps posting full stream DATA Sends (64 KiB less the header,
 * no credits taken, none waited for) while our application reads nothing. The window it was
 * given is 4 buffers; the fifth Send finds no posted receive, and the connection ends with a
 * Terminate from us, which the hostile end receives. All the while the pool our end takes its memory from holds no more than
 * the two ends' base: no block was taken for the flood.
 */
@Timeout(60)
class CreditFloodTest {

    private static final int BLOCK = DirectBufferPool.BLOCK_SIZE;
    private static final int FLOOD = 64;
    private static final int FULL = IwarpStream.BUFFER_SIZE - 4;
    private static final byte DATA = 1;

    @Test
    void sendsBeyondTheWindowEndTheConnectionWithoutBufferingMore() throws Exception {
        DirectBufferPool pool = new DirectBufferPool(BLOCK, 64L << 20);
        try (ServerSocketChannel listener = ServerSocketChannel.open()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             PrivatePoolPair pair = PrivatePoolPair.connect(new SoftwareIwarpProvider(pool), listener)) {
            long base = 2L * BASE_BLOCKS * BLOCK;
            assertEquals(base, pool.inUseBytes(), pool.toString());
            QueuePairVerbs hostile = pair.hostileVerbs();

            AtomicBoolean flooding = new AtomicBoolean(true);
            AtomicLong mostInUse = new AtomicLong(pool.inUseBytes());
            Thread sampler = new Thread(() -> {
                while (flooding.get()) {
                    mostInUse.accumulateAndGet(pool.inUseBytes(), Math::max);
                    Thread.onSpinWait();
                }
            }, "pool-sampler");
            sampler.start();

            ByteBuffer message = ByteBuffer.allocateDirect(4 + FULL);
            message.put(DATA).put((byte) 0).putShort((short) 0).put(new byte[FULL]).flip();
            MemoryRegion region = hostile.register(message, Set.of());
            int posted = 0;
            List<String> refusedPosts = new ArrayList<>();
            for (int i = 0; i < FLOOD; i++) {
                try {
                    hostile.post(new SendRequest().tag(i).gather(region.slice(0, message.capacity())));
                    posted++;
                } catch (IOException | IllegalStateException e) {
                    refusedPosts.add(i + ": " + e.getMessage());  // the connection already ended
                    break;
                }
            }
            List<WorkCompletion> completions = new ArrayList<>();
            for (int i = 0; i < posted; i++) {
                WorkCompletion completion = hostile.completions().take(20, TimeUnit.SECONDS);
                assertTrue(completion != null, "completion " + i + " of " + posted + ": the flood's Sends must end");
                completions.add(completion);
            }
            flooding.set(false);
            sampler.join();

            // The flood's Sends complete once handed to TCP; our end may still be reading them.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (pair.responder().connection().statistics().messagesSent(MessageType.TERMINATE) == 0
                    && System.nanoTime() < deadline) {
                Thread.sleep(5);  // a polling interval
            }
            long failed = completions.stream().filter(c -> c.status() != CompletionStatus.SUCCESS).count();
            long received = pair.responder().connection().statistics().messagesReceived(MessageType.SEND);
            IwarpStream ours = pair.responderStream();
            long terminatesSent = pair.responder().connection().statistics().messagesSent(MessageType.TERMINATE);
            System.out.printf("credit flood: %d Sends of %d octets posted (%s), %d completed in error; our end"
                    + " took %d of them and sent %d Terminate(s); most in use in the pool during the flood %d KiB, base %d KiB,"
                    + " growth %d, %s%n", posted, 4 + FULL, refusedPosts.isEmpty() ? "none refused" : refusedPosts,
                    failed, received, terminatesSent, mostInUse.get() / 1024, base / 1024, pool.growthBytes(), pool);

            assertTrue(mostInUse.get() <= base, "the flood took memory: " + mostInUse.get() + " > " + base);
            assertEquals(0, pool.growthBytes(), "no window growth for a peer that never waited");
            assertEquals(IwarpStream.RECEIVE_BUFFERS, ours.receiveWindowBuffers());
            assertTrue(received <= IwarpStream.RECEIVE_BUFFERS, "took " + received + " Sends, more than the window");
            assertTrue(terminatesSent >= 1, "our end answers the overrun with a Terminate");
            // The flood's Sends complete as they enter TCP (iWARP acknowledges none), so their
            // status says nothing; the hostile end learns of the overrun from our Terminate.
            for (int i = 0; i < 2_000 && hostile.statistics().messagesReceived(MessageType.TERMINATE) == 0; i++) {
                Thread.sleep(5);  // a polling interval
            }
            assertEquals(1, hostile.statistics().messagesReceived(MessageType.TERMINATE), "the hostile end got it");
            // Our reader learns that the connection ended, after what the window held (if anything):
            // an error that says so, not a read timeout.
            IOException ended = assertThrows(IOException.class, () -> {
                byte[] drain = new byte[FULL];
                for (int i = 0; i <= IwarpStream.RECEIVE_BUFFERS; i++) {
                    if (ours.read(drain, 0, drain.length, 10_000) < 0) {
                        throw new IOException("end of stream");
                    }
                }
            });
            System.out.println("our reader: " + ended);
            assertFalse(ended instanceof SocketTimeoutException, ended.toString());
        }
        for (int i = 0; i < 2_000 && pool.inUseBytes() != 0; i++) {
            Thread.sleep(5);  // a polling interval
        }
        assertEquals(0, pool.inUseBytes(), "closed: every block back, " + pool);
    }
}
