package io.extsock.core.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.ThreadProbe;
import io.extsock.verbs.MessageType;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Small writes while half the peer's window or more is spent are copied into one batch that
 * goes out as a single Send when credits come back, as TCP's send buffer gathers small writes:
 * fewer Sends than writes, every byte in order around large writes, a large write's tail not
 * batched while credits are merely low, and the batch sent before a FIN and before a close.
 */
@Timeout(60)
class SmallWriteBatchTest extends OnStreamPair {

    private static final int SMALL = 4 * 1024;
    /** A read waits at most this long: a writer that failed must fail the test, not hang it (reads ignore interrupts). */
    private static final int READ_TIMEOUT_MILLIS = 20_000;
    /** Writes of {@link #SMALL} bytes a full batch holds. */
    private static final int BATCH_WRITES = IwarpStream.BUFFER_DATA / SMALL;
    /** How long a test waits for the stream to reach the state it checks, at most. */
    private static final long PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(20);

    /**
     * The reader reads nothing while the writer writes until its batch is full: the writes that
     * found the window full are in the batch, not in Sends of their own (one each before), and
     * none of them blocked. Then every byte arrives, in order, the batch in one Send.
     */
    @Test
    void writesWhileTheWindowIsFullShareOneSend() throws Exception {
        AtomicInteger writes = new AtomicInteger();
        OwnThread.run("small-writer", () -> fillTheReadersBuffersAndTheBatch(writes)).get(20, TimeUnit.SECONDS);
        int written = writes.get();
        long sends = sendsOfTheWriter();
        assertTrue(sends <= written - BATCH_WRITES, written + " writes, " + sends + " Sends");
        CompletableFuture<Void> writing = OwnThread.run("small-writer", () -> {
            for (int i = written; i < 1_000; i++) {
                writer.write(NumberedWrites.write(i, SMALL), 0, SMALL);
            }
        });
        byte[] received = new byte[SMALL];
        for (int i = 0; i < 1_000; i++) {
            NumberedWrites.readFully(reader, received, 0, READ_TIMEOUT_MILLIS);
            assertArrayEquals(NumberedWrites.write(i, SMALL), received, "write " + i);
        }
        writing.get(20, TimeUnit.SECONDS);
        assertEquals(0, writer.batchedOctets());
        // The writer's end sends nothing but DATA here (its reader reads nothing): each write cost
        // at most one Send, and the full batch one for all its writes.
        assertTrue(sendsOfTheWriter() <= 1_000 - BATCH_WRITES + 1, "1,000 writes, " + sendsOfTheWriter() + " Sends");
    }

    private long sendsOfTheWriter() {
        return pair.initiator.connection().statistics().messagesSent(MessageType.SEND);
    }

    /**
     * Writes of random sizes, mostly small, some far larger than a Send, while the reader
     * pauses now and then and reads in pieces of random size: the stream carries every byte
     * in order, batched or not.
     */
    @Test
    void smallAndLargeWritesKeepTheirOrder() throws Exception {
        long total = 16L << 20;
        CompletableFuture<byte[]> writing = new CompletableFuture<>();
        Thread writerThread = new Thread(() -> {
            try {
                MessageDigest digest = MessageDigest.getInstance("SHA-256");
                Random random = new Random(13);
                byte[] buffer = new byte[300 * 1024];
                for (long written = 0; written < total; ) {
                    int size = random.nextInt(10) == 0 ? 1 + random.nextInt(buffer.length)
                            : 1 + random.nextInt(StreamOutput.MAX_BATCHED_WRITE);
                    size = (int) Math.min(size, total - written);
                    random.nextBytes(buffer);
                    digest.update(buffer, 0, size);
                    writer.write(buffer, 0, size);
                    written += size;
                }
                writing.complete(digest.digest());
            } catch (Throwable e) {
                writing.completeExceptionally(e);
            }
        }, "small-and-large-writer");
        writerThread.setDaemon(true);
        writerThread.start();
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        Random random = new Random(17);
        byte[] buffer = new byte[100 * 1024];
        for (long received = 0; received < total; ) {
            if (random.nextInt(200) == 0) {
                awaitTheWindowFull(writerThread, writing);  // and writes go into the batch meanwhile
            }
            int n = reader.read(buffer, 0, (int) Math.min(1 + random.nextInt(buffer.length), total - received), READ_TIMEOUT_MILLIS);
            assertTrue(n > 0, "end of stream after " + received + " bytes");
            digest.update(buffer, 0, n);
            received += n;
        }
        assertArrayEquals(writing.get(20, TimeUnit.SECONDS), digest.digest());
    }

    /** Returns once the writer waits for credits (the reader reads nothing meanwhile), or has written everything. */
    private static void awaitTheWindowFull(Thread writerThread, CompletableFuture<byte[]> writing)
            throws InterruptedException {
        ThreadProbe.awaitStack(writerThread, "waiting for credits in its write", stack -> writing.isDone()
                || ThreadProbe.isWaiting(writerThread, stack)
                && ThreadProbe.inside(stack, "io.extsock.core.stream.WriterWaits", "forCredits"));
    }

    /**
     * A write of two full Sends and a small tail on a fresh connection, which spends half the
     * window: the tail goes in a Send of its own, at once, for only a small write waits in the
     * batch while credits are merely low (a large write's tail would wait there for the credits
     * its own Sends had spent, halving bulk stream bandwidth). A small write after it
     * does wait in the batch. The reader gets every byte, in order.
     */
    @Test
    void onlySmallWritesWaitInTheBatchWhileCreditsAreLow() throws Exception {
        int sendPayload = IwarpStream.BUFFER_DATA;
        byte[] large = new byte[2 * sendPayload + 100];
        new Random(5).nextBytes(large);
        OwnThread.run("small-writer", () -> writer.write(large, 0, large.length)).get(20, TimeUnit.SECONDS);
        assertEquals(0, writer.batchedOctets(), "the large write's tail waits in the batch");
        assertEquals(3, sendsOfTheWriter(), "Sends of the large write");
        byte[] small = NumberedWrites.write(7, 100);
        OwnThread.run("small-writer", () -> writer.write(small, 0, small.length)).get(20, TimeUnit.SECONDS);
        assertEquals(small.length, writer.batchedOctets(), "the small write waits in the batch");
        byte[] received = new byte[large.length + small.length];
        NumberedWrites.readFully(reader, received, 0, READ_TIMEOUT_MILLIS);
        byte[] expected = new byte[received.length];
        System.arraycopy(large, 0, expected, 0, large.length);
        System.arraycopy(small, 0, expected, large.length, small.length);
        assertArrayEquals(expected, received);
    }

    /**
     * Shutting output down sends the batch first, waiting for room for it: the reader, which
     * starts reading only once the shutdown waits, gets every byte, then end of stream.
     */
    @Test
    void shutdownOutputSendsTheBatchBeforeTheFin() throws Exception {
        AtomicInteger writes = new AtomicInteger();
        OwnThread.run("small-writer", () -> fillTheReadersBuffersAndTheBatch(writes)).get(20, TimeUnit.SECONDS);
        BlockingQueue<Thread> shutter = new LinkedBlockingQueue<>();
        CompletableFuture<Void> shuttingDown = OwnThread.run("small-writer", () -> {
            shutter.add(Thread.currentThread());
            writer.shutdownOutput();
        });
        awaitWaitingForRoomForTheBatch(shutter.take(), shuttingDown);
        readEveryWriteThenEnd(writes, shuttingDown);
    }

    /**
     * Closing sends the batch if the peer makes room for it within the close's wait: the reader,
     * which starts reading only once the close waits, gets every byte, then end of stream.
     */
    @Test
    void closeSendsTheBatchIfThePeerReadsInTime() throws Exception {
        AtomicInteger writes = new AtomicInteger();
        OwnThread.run("small-writer", () -> fillTheReadersBuffersAndTheBatch(writes)).get(20, TimeUnit.SECONDS);
        BlockingQueue<Thread> closer = new LinkedBlockingQueue<>();
        CompletableFuture<Void> closing = OwnThread.run("small-writer", () -> {
            closer.add(Thread.currentThread());
            writer.close();
        });
        awaitWaitingForRoomForTheBatch(closer.take(), closing);
        readEveryWriteThenEnd(writes, closing);
    }

    /**
     * Returns once {@code thread} waits inside the batch's sending for room (no credit is on its
     * way, so only reading makes it), having checked that it is still there with the batch whole.
     */
    private void awaitWaitingForRoomForTheBatch(Thread thread, CompletableFuture<Void> call) throws InterruptedException {
        ThreadProbe.awaitWaitingInside(thread, "io.extsock.core.stream.BatchSending", "send");
        assertFalse(call.isDone(), "the call waits for room for the batch");
        assertEquals(BATCH_WRITES * SMALL, writer.batchedOctets(), "the batch waits whole");
    }

    /**
     * A close does not wait for good on a peer that reads nothing: it gives up on the batch
     * after its wait, and what the reader then gets is the stream's beginning, intact.
     */
    @Test
    void closeGivesUpOnAPeerThatReadsNothing() throws Exception {
        AtomicInteger writes = new AtomicInteger();
        OwnThread.run("small-writer", () -> fillTheReadersBuffersAndTheBatch(writes)).get(20, TimeUnit.SECONDS);
        long started = System.nanoTime();
        OwnThread.run("small-writer", writer::close).get(20, TimeUnit.SECONDS);
        assertTrue(System.nanoTime() - started >= BatchSending.CLOSE_FLUSH_NANOS, "the close waited for room");
        assertEquals(BATCH_WRITES * SMALL, writer.batchedOctets(), "the batch was dropped, not sent");
        byte[] received = new byte[SMALL];
        int whole = 0;
        try {
            while (true) {
                int at = 0;
                while (at < SMALL) {
                    int n = reader.read(received, at, SMALL - at, READ_TIMEOUT_MILLIS);
                    if (n < 0) {
                        break;
                    }
                    at += n;
                }
                if (at < SMALL) {
                    break;
                }
                assertArrayEquals(NumberedWrites.write(whole, SMALL), received, "write " + whole);
                whole++;
            }
        } catch (IOException ended) {
            // the writer's end closed with bytes it could not send: a reset is a fair answer
        }
        // Every write before the batch was handed to TCP before it returned; the batch held the last.
        assertEquals(writes.get() - BATCH_WRITES, whole, "writes read whole");
    }

    /**
     * Writes until the batch is full and stays full, with no credit to send it: every byte
     * outside it is in the reader's buffers, unread, and no credit is on its way (the reader's
     * end may first grow its window, and returns credits while it packs small Sends into its
     * buffers; a full batch with credits left goes out at the next write).
     */
    private void fillTheReadersBuffersAndTheBatch(AtomicInteger writes) throws Exception {
        while (true) {
            writeUntilTheBatchIsFull(writes);
            long outside = (long) (writes.get() - BATCH_WRITES) * SMALL;
            // Every byte outside the batch taken into the reader's buffers: the credits its
            // arrival frees are decided on by then.
            awaitState("every byte outside the batch at the reader, or the batch sent",
                    () -> reader.available() >= outside || writer.batchedOctets() < BATCH_WRITES * SMALL);
            awaitState("every credit of the reader's end that goes without a read at the writer",
                    this::noCreditOnItsWay);
            if (writer.batchedOctets() == BATCH_WRITES * SMALL && reader.available() == outside
                    && writer.writerCredits() < 2) {
                return;
            }
        }
    }

    /**
     * Whether the reader's end has no credit on its way to the writer: none decided on that goes
     * without a read (owed credits short of half its window wait for reading), and every one it
     * sent counted by the writer. Read twice around the writer's count, so that a credit sent
     * meanwhile shows.
     */
    private boolean noCreditOnItsWay() {
        if (reader.readerCreditsOnTheirWay() != 0) {
            return false;
        }
        long sent = reader.readerCreditsSent();
        return writer.writerCreditsReceived() == sent && reader.readerCreditsOnTheirWay() == 0
                && reader.readerCreditsSent() == sent;
    }

    /** A state of the stream pair a test waits for. */
    private interface State {
        boolean holds() throws IOException;
    }

    /** Waits until {@code state} holds; {@code what} says what that means, for a failure. */
    private static void awaitState(String what, State state) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + PATIENCE_NANOS;
        while (!state.holds()) {
            assertTrue(System.nanoTime() - deadline < 0, "never " + what + " in 20 s");
            Thread.sleep(1);  // a polling interval: the test holds at any speed
        }
    }

    /**
     * Writes {@link #SMALL} bytes at a time, the reader reading nothing, at least once and until
     * the batch is full; counts the writes. The reader's end takes what its buffers hold
     * meanwhile, so a batch may go out before: then another fills.
     */
    private void writeUntilTheBatchIsFull(AtomicInteger writes) throws IOException {
        do {  // at least one: a full batch with credits left goes out with the next write
            int i = writes.get();
            assertTrue(i < 10_000, "the batch never filled for good");
            writer.write(NumberedWrites.write(i, SMALL), 0, SMALL);
            writes.incrementAndGet();
        } while (writer.batchedOctets() < BATCH_WRITES * SMALL);
    }

    private void readEveryWriteThenEnd(AtomicInteger writes, CompletableFuture<Void> writing) throws Exception {
        byte[] received = new byte[SMALL];
        int i = 0;
        while (true) {
            int n = reader.read(received, 0, SMALL, READ_TIMEOUT_MILLIS);
            if (n < 0) {
                break;
            }
            NumberedWrites.readFully(reader, received, n, READ_TIMEOUT_MILLIS);
            assertArrayEquals(NumberedWrites.write(i, SMALL), received, "write " + i);
            i++;
        }
        writing.get(20, TimeUnit.SECONDS);
        assertEquals(writes.get(), i, "writes read before the end of stream");
    }
}
