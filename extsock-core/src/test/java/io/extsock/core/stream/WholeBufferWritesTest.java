package io.extsock.core.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.extsock.verbs.MessageType;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Writes of 64 KiB, what bulk writers and file copies make, go as one Send each: a receive
 * buffer holds 64 KiB of stream behind its header. With buffers of 64 KiB, header included,
 * each such write went as two Sends, the second with 4 octets, and cost a second credit,
 * receive and FPDU.
 */
@Timeout(60)
class WholeBufferWritesTest extends OnStreamPair {

    private static final int WRITE = 64 * 1024;
    private static final int WRITES = 32;
    /** A read waits at most this long: a writer that failed must fail the test, not hang it. */
    private static final int READ_TIMEOUT_MILLIS = 20_000;

    @Test
    void each64KibWriteIsOneSend() throws Exception {
        byte[] written = new byte[WRITES * WRITE];
        new Random(11).nextBytes(written);
        CompletableFuture<Void> writing = OwnThread.run("bulk-writer", () -> {
            for (int i = 0; i < WRITES; i++) {
                writer.write(written, i * WRITE, WRITE);
            }
        });
        byte[] received = new byte[written.length];
        NumberedWrites.readFully(reader, received, 0, READ_TIMEOUT_MILLIS);
        writing.get(20, TimeUnit.SECONDS);

        assertArrayEquals(written, received);
        // The writer's end sends nothing but DATA here: its reader reads nothing, so it owes no credits.
        assertEquals(WRITES, sendsOfTheWriter(), "Sends of " + WRITES + " writes of 64 KiB");
        assertEquals((long) WRITES * (WRITE + StreamHeader.LENGTH), payloadOfTheWritersSends(),
                "octets of those Sends: each write and one stream header");
    }

    @Test
    void aWriteOfAMebibyteIsSixteenSends() throws Exception {
        byte[] written = new byte[16 * WRITE];
        new Random(12).nextBytes(written);
        CompletableFuture<Void> writing = OwnThread.run("bulk-writer", () -> writer.write(written, 0, written.length));
        byte[] received = new byte[written.length];
        NumberedWrites.readFully(reader, received, 0, READ_TIMEOUT_MILLIS);
        writing.get(20, TimeUnit.SECONDS);

        assertArrayEquals(written, received);
        assertEquals(16, sendsOfTheWriter(), "Sends of one write of 1 MiB");
    }

    private long sendsOfTheWriter() {
        return pair.initiator.connection().statistics().messagesSent(MessageType.SEND);
    }

    private long payloadOfTheWritersSends() {
        return pair.initiator.connection().statistics().payloadSent().get(MessageType.SEND);
    }
}
