package io.extsock.core.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The stream's receive window starts small and grows only when the peer's writer had to wait
 * for it: a bulk writer widens it to the maximum, a request-response exchange leaves it alone.
 */
@Timeout(60)
class StreamWindowTest extends OnStreamPair {

    @Test
    void requestResponseKeepsTheFirstWindow() throws Exception {
        byte[] request = new byte[64];
        byte[] response = new byte[64];
        CompletableFuture<Void> echo = CompletableFuture.runAsync(() -> {
            try {
                byte[] message = new byte[64];
                for (int i = 0; i < 500; i++) {
                    NumberedWrites.readFully(reader, message, 0, 0);
                    reader.write(message, 0, message.length);
                }
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        for (int i = 0; i < 500; i++) {
            request[0] = (byte) i;
            writer.write(request, 0, request.length);
            NumberedWrites.readFully(writer, response, 0, 0);
            assertArrayEquals(request, response);
        }
        echo.get(20, TimeUnit.SECONDS);
        assertEquals(IwarpStream.RECEIVE_BUFFERS, reader.receiveWindowBuffers());
        assertEquals(IwarpStream.RECEIVE_BUFFERS, writer.receiveWindowBuffers());
    }

    /**
     * The reader stops now and then until the writer is stuck on the window: each time, the
     * writer's next message says it waited, and the window doubles, up to its maximum. The
     * writer's own window, which only ever receives credits, stays as it was.
     */
    @Test
    void aWriterHeldUpByTheWindowWidensIt() throws Exception {
        int pauses = BulkTransfer.run(writer, reader, 7);
        assertEquals(IwarpStream.MAX_RECEIVE_BUFFERS, reader.receiveWindowBuffers(), "after " + pauses + " pauses");
        assertEquals(IwarpStream.RECEIVE_BUFFERS, writer.receiveWindowBuffers());
    }

    /**
     * Small writes nobody reads yet fill the window by bytes, as TCP's does: without that, each
     * took a whole receive buffer and the fourth 1-byte write blocked. 2,000 writes of 16 bytes
     * go through unread; then every byte arrives, in order.
     */
    @Test
    void smallWritesTheReaderHasNotReadDoNotBlockTheWriter() throws Exception {
        int messages = 2_000;
        int size = 16;
        OwnThread.run("small-writer", () -> {
            for (int i = 0; i < messages; i++) {
                writer.write(NumberedWrites.write(i, size), 0, size);
            }
        }).get(20, TimeUnit.SECONDS);  // a writer blocked on the window fails here
        byte[] received = new byte[size];
        for (int i = 0; i < messages; i++) {
            NumberedWrites.readFully(reader, received, 0, 0);
            assertArrayEquals(NumberedWrites.write(i, size), received, "message " + i);
        }
        assertEquals(0, reader.available());
    }

    /**
     * A pipelining protocol: both ends write their requests before they read the other's. Over
     * TCP that works while the bytes fit its buffers; here it blocked both ends for good.
     */
    @Test
    void bothEndsWritingBeforeTheyReadDoNotDeadlock() throws Exception {
        int messages = 500;
        int size = 40;
        // Both on threads of their own: a deadlocked write ignores interrupts, as a Socket's does,
        // so a test thread stuck in one would hang the run rather than fail it.
        CompletableFuture<Void> oneEnd = OwnThread.run("pipelining-end", () -> writeThenRead(writer, messages, size));
        CompletableFuture<Void> otherEnd = OwnThread.run("pipelining-end", () -> writeThenRead(reader, messages, size));
        CompletableFuture.allOf(oneEnd, otherEnd).get(20, TimeUnit.SECONDS);
    }

    private static void writeThenRead(IwarpStream stream, int messages, int size) throws Exception {
        for (int i = 0; i < messages; i++) {
            stream.write(NumberedWrites.write(i, size), 0, size);
        }
        byte[] received = new byte[size];
        for (int i = 0; i < messages; i++) {
            NumberedWrites.readFully(stream, received, 0, 0);
            assertArrayEquals(NumberedWrites.write(i, size), received, "message " + i);
        }
    }
}
