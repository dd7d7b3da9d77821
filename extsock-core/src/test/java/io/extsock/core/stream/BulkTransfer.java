package io.extsock.core.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.security.MessageDigest;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
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
        CompletableFuture<byte[]> sent = CompletableFuture.supplyAsync(() -> {
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
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        byte[] buffer = new byte[64 * 1024];
        long total = (long) WRITES * CHUNK;
        long received = 0;
        int pauses = 0;
        while (received < total) {
            if (reader.receiveWindowBuffers() < IwarpStream.MAX_RECEIVE_BUFFERS && written.get() < total
                    && pauses < MOST_PAUSES) {
                awaitStalled(written);  // the writer is waiting for credits now
                pauses++;
            }
            int n = reader.read(buffer, 0, (int) Math.min(buffer.length, total - received), 0);
            digest.update(buffer, 0, n);
            received += n;
        }
        assertArrayEquals(sent.get(30, TimeUnit.SECONDS), digest.digest(), "every byte, in order");
        return pauses;
    }

    /** Returns once the writer's progress has stood still for 50 ms (it waits for the window). */
    private static void awaitStalled(AtomicLong written) throws InterruptedException {
        long last = written.get();
        while (true) {
            Thread.sleep(50);
            long now = written.get();
            if (now == last) {
                return;
            }
            last = now;
        }
    }
}
