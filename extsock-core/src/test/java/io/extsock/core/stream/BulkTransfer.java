package io.extsock.core.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.extsock.core.ThreadProbe;
import java.security.MessageDigest;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * 64 MiB through a stream, the reader stopping now and then until the writer waits for the
 * window (at most 20 times), so that the window grows; checks every byte.
 */
final class BulkTransfer {

    private static final int WRITES = 256;
    private static final int CHUNK = 256 * 1024;
    private static final int MOST_PAUSES = 20;

    private BulkTransfer() {
    }

    /**
     * Writes random bytes from {@code seed} on a thread of the common pool and reads them here.
     *
     * @return how often the reader paused for the writer to wait
     */
    static int run(IwarpStream writer, IwarpStream reader, long seed) throws Exception {
        byte[] chunk = new byte[CHUNK];
        AtomicLong written = new AtomicLong();
        BlockingQueue<Thread> writing = new LinkedBlockingQueue<>();
        CompletableFuture<byte[]> sent = CompletableFuture.supplyAsync(() -> {
            writing.add(Thread.currentThread());
            try {
                MessageDigest digest = MessageDigest.getInstance("SHA-256");
                Random random = new Random(seed);
                for (int i = 0; i < WRITES; i++) {
                    random.nextBytes(chunk);
                    digest.update(chunk);
                    writer.write(chunk, 0, chunk.length);
                    written.addAndGet(chunk.length);
                }
                return digest.digest();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        Thread writerThread = writing.take();
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        byte[] buffer = new byte[64 * 1024];
        long total = (long) WRITES * CHUNK;
        long received = 0;
        int pauses = 0;
        while (received < total) {
            if (reader.receiveWindowBuffers() < IwarpStream.MAX_RECEIVE_BUFFERS && written.get() < total
                    && pauses < MOST_PAUSES) {
                awaitWaitingForTheWindow(writerThread, written, total);
                pauses++;
            }
            int n = reader.read(buffer, 0, (int) Math.min(buffer.length, total - received), 0);
            digest.update(buffer, 0, n);
            received += n;
        }
        assertArrayEquals(sent.get(30, TimeUnit.SECONDS), digest.digest(), "every byte, in order");
        return pauses;
    }

    /**
     * Returns once the writer waits inside its write (for credits: the reader reads nothing
     * meanwhile), or has written everything (the rest fitted in the window).
     */
    private static void awaitWaitingForTheWindow(Thread writer, AtomicLong written, long total)
            throws InterruptedException {
        ThreadProbe.awaitStack(writer, "waiting in its write", stack -> written.get() == total
                || ThreadProbe.isWaiting(writer, stack) && ThreadProbe.inside(stack, "io.extsock", "write"));
    }
}
