package io.extsock.core.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The small-write batch keeps its place in the stream when the credits that free it arrive on
 * another thread (the engine's, while the application's holds the writing lock): it goes before
 * the FIN of a shutdown, and before the next write's own bytes. Driven by hand, so that the
 * order is the test's, not the scheduler's.
 */
@Timeout(30)
class SmallWriteBatchOrderTest {

    private static final int SMALL = 100;

    @Test
    void theBatchGoesBeforeTheFin() throws Exception {
        HandDrivenStream stream = batchOfThreeWrites();
        List<Integer> sent = creditsFromAnotherThreadRecording(stream, s -> s.sendsInFlight().get(0));
        stream.output.shutdown();
        sent.addAll(stream.sendsInFlight());
        assertEquals(List.of(StreamHeader.DATA, StreamHeader.FIN), sent, "our Sends after the batch, in order");
        assertEquals(0, stream.output.batchedOctets());
    }

    @Test
    void theBatchGoesBeforeALargeWrite() throws Exception {
        HandDrivenStream stream = batchOfThreeWrites();
        List<Integer> lengths = creditsFromAnotherThreadRecording(stream, HandDrivenStream::oldestSendPayload);
        byte[] large = new byte[HandDrivenStream.BUFFER_SIZE - StreamHeader.LENGTH];
        stream.output.write(large, 0, large.length);  // larger than a batched write: waits for a credit
        assertEquals(List.of(3 * SMALL, large.length), lengths, "payloads of our Sends, in order");
    }

    /**
     * A stream whose peer returns no credits: two writes go out on their own, and with half its
     * window of four spent, the next three wait in the batch.
     */
    private static HandDrivenStream batchOfThreeWrites() throws Exception {
        HandDrivenStream stream = new HandDrivenStream(4);
        stream.onWait = (s, condition) -> {
            while (!condition.getAsBoolean() && !s.inFlight.isEmpty()) {
                s.completeOldestSend();  // TCP takes them; the peer's application reads nothing
            }
        };
        byte[] small = new byte[SMALL];
        for (int i = 0; i < 5; i++) {
            stream.output.write(small, 0, small.length);
        }
        assertEquals(2, stream.writerCredits());
        assertEquals(3 * SMALL, stream.output.batchedOctets());
        return stream;
    }

    /** What the peer notes of our oldest Send before letting it leave. */
    private interface SendRecord {
        int of(HandDrivenStream stream) throws ReflectiveOperationException;
    }

    /**
     * The peer's next wait: it returns two credits on a thread of its own (as the engine's thread
     * would), then lets our Sends leave, recording each as {@code record} says.
     */
    private static List<Integer> creditsFromAnotherThreadRecording(HandDrivenStream stream, SendRecord record) {
        List<Integer> sent = new ArrayList<>();
        AtomicBoolean given = new AtomicBoolean();
        stream.onWait = (s, condition) -> {
            if (given.compareAndSet(false, true)) {
                creditOnAnotherThread(s, 2);
            }
            while (!condition.getAsBoolean() && !s.inFlight.isEmpty()) {
                sent.add(record.of(s));
                s.completeOldestSend();
            }
        };
        return sent;
    }

    private static void creditOnAnotherThread(HandDrivenStream stream, int credits) {
        Thread engine = new Thread(() -> stream.output.creditsReturned(credits), "engine-like");
        engine.start();
        try {
            engine.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
