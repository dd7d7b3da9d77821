package io.extsock.core.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.engine.SoftwareIwarpProvider;
import io.extsock.core.mpa.MpaAgreement;
import io.extsock.core.mpa.MpaRole;
import io.extsock.core.mpa.PrivateData;
import io.extsock.core.verbs.CompletionRecord;
import io.extsock.core.verbs.ConnectionCounters;
import io.extsock.core.verbs.InlineWait;
import io.extsock.core.verbs.MemoryRegistry;
import io.extsock.core.verbs.QueuePair;
import io.extsock.core.verbs.WorkCompleter;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.WorkOpcode;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Whatever a peer sends, the stream's own Sends never fill the queue pair's send queue (512
 * entries; posting beyond throws IllegalStateException, on the receive path for a credit
 * update). The peer here is driven by hand: its Sends are completed into the stream's receive
 * buffers as the queue pair's receive side would, and ours leave (complete) only when the test
 * says so, as to a peer that reads its socket only then.
 */
class StreamSendQueueBoundTest {

    private static final int BUFFER_SIZE = 1024;

    /**
     * A peer that reads nothing and floods us with CREDIT messages, returning a credit on every
     * other one (as many as our answers spent, before) while that keeps our credits within any
     * window: before, every two of them queued one more credit update of ours until the send
     * queue was full. Now one CREDIT is outstanding, and when it leaves, one more returns
     * everything owed meanwhile.
     */
    @Test
    void aCreditFloodLeavesOneCreditSendOutstanding() throws Exception {
        Harness h = new Harness(IwarpStream.RECEIVE_BUFFERS);
        for (int i = 0; i < 20_000; i++) {
            h.receive(StreamHeader.CREDIT, i % 2 == 0 && h.writerCredits() < 256 ? 1 : 0);
            assertTrue(h.inFlight.size() <= 1, "message " + i + ": " + h.inFlight.size() + " of our Sends outstanding");
        }
        assertTrue(h.queuePair.isConnected(), "credits within the window: nothing broken");
        assertEquals(1, h.inFlight.size());
        assertTrue(h.creditsOwed() > 0, "credits owed meanwhile wait for the outstanding CREDIT");

        h.completeOldestSend();  // TCP takes our CREDIT: the update waiting for it goes out
        assertEquals(1, h.inFlight.size(), "one CREDIT again");
        assertEquals(0, h.creditsOwed(), "it returns everything owed");
        h.completeOldestSend();
        assertEquals(0, h.inFlight.size(), "nothing more to say");
    }

    /**
     * A peer that announces (or returns) the most buffers it can have, 512: a writer with that
     * many credits posts at most MAX_DATA_SENDS_IN_FLIGHT DATA Sends before TCP takes them,
     * then waits for TCP, as a socket's write waits for room in its send buffer.
     */
    @Test
    void aWriterWithAWholeQueueOfCreditsLeavesRoomInTheSendQueue() throws Exception {
        Harness h = new Harness(IwarpStream.MAX_PEER_RECEIVE_BUFFERS);
        byte[] data = new byte[3 * StreamOutput.MAX_DATA_SENDS_IN_FLIGHT * (BUFFER_SIZE - StreamHeader.LENGTH)];
        h.output.write(data, 0, data.length);
        assertEquals(StreamOutput.MAX_DATA_SENDS_IN_FLIGHT, h.driver.mostInFlightSeen,
                "the writer filled its share of the send queue, and no more, before it waited");
        assertEquals(0, h.inFlight.size(), "the write returned when TCP had every byte");
        assertEquals(3 * StreamOutput.MAX_DATA_SENDS_IN_FLIGHT, h.driver.sendsCompleted);
        assertTrue(h.queuePair.isConnected());
    }

    /** One stream over a real queue pair whose driver is this test. */
    private static final class Harness {
        final Driver driver = new Driver();
        final QueuePair queuePair;
        final StreamOutput output;
        final StreamInput input;
        final ArrayDeque<?> inFlight;
        final ArrayDeque<?> receiveQueue;
        private final ByteBuffer[] buffers;
        private final Field receiveTag;
        private final Field sendCompleter;
        private final Field sendTag;

        Harness(int peerReceiveBuffers) throws Exception {
            MpaAgreement agreement = new MpaAgreement(MpaRole.INITIATOR, 2, true, true, false, false, 16, 16, false,
                    Optional.empty(), PrivateData.EMPTY);
            queuePair = new QueuePair(agreement, SoftwareIwarpProvider.pipeline(agreement, 65484),
                    new MemoryRegistry(), driver, driver, ConnectionCounters.unnamed());
            output = new StreamOutput(queuePair, driver, peerReceiveBuffers, BUFFER_SIZE, () -> { });
            input = new StreamInput(queuePair, driver, IwarpStream.RECEIVE_BUFFERS, IwarpStream.MAX_RECEIVE_BUFFERS,
                    BUFFER_SIZE, new byte[0], output);
            output.connect(input);
            input.postAll();
            driver.harness = this;
            buffers = (ByteBuffer[]) field(StreamInput.class, "buffers").get(input);
            inFlight = (ArrayDeque<?>) field(QueuePair.class, "inFlight").get(queuePair);
            receiveQueue = (ArrayDeque<?>) field(QueuePair.class, "receiveQueue").get(queuePair);
            receiveTag = field(Class.forName("io.extsock.core.verbs.ReceiveWork"), "tag");
            Class<?> sendWork = Class.forName("io.extsock.core.verbs.SendWork");
            sendCompleter = field(sendWork, "completer");
            sendTag = field(sendWork, "tag");
        }

        /** A message of the peer's arrives in the oldest receive buffer posted. */
        void receive(int type, int creditsReturned) throws ReflectiveOperationException {
            Object work = receiveQueue.poll();
            int tag = (int) (long) receiveTag.get(work);
            StreamHeader.put(buffers[tag].clear(), type, 0, creditsReturned);
            input.complete(completion(tag, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, StreamHeader.LENGTH, false, 0,
                    null));
        }

        /** Our oldest Send left: TCP took it. */
        void completeOldestSend() throws ReflectiveOperationException {
            Object work = inFlight.poll();
            long tag = (long) sendTag.get(work);
            ((WorkCompleter) sendCompleter.get(work)).complete(completion(tag, WorkOpcode.SEND,
                    CompletionStatus.SUCCESS, 0, false, 0, null));
        }

        int writerCredits() throws ReflectiveOperationException {
            synchronized (output) {
                return (int) field(StreamOutput.class, "credits").get(output);
            }
        }

        int creditsOwed() throws ReflectiveOperationException {
            synchronized (input) {
                return (int) field(StreamInput.class, "creditsToReturn").get(input);
            }
        }
    }

    /**
     * Transmits nothing by itself; a wait is where the peer reads: our Sends leave one by one
     * (the peer returning each DATA's buffer) until the condition holds.
     */
    private static final class Driver implements QueuePair.Driver, InlineWait {
        Harness harness;
        int mostInFlightSeen;
        int sendsCompleted;

        @Override
        public void transmitPending() {
        }

        @Override
        public void closeRequested() {
        }

        @Override
        public boolean await(BooleanSupplier condition, long timeoutNanos, boolean interruptible) {
            mostInFlightSeen = Math.max(mostInFlightSeen, harness.inFlight.size());
            try {
                while (!condition.getAsBoolean() && !harness.inFlight.isEmpty()) {
                    harness.completeOldestSend();
                    sendsCompleted++;
                    harness.output.creditsReturned(1);
                }
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
            return condition.getAsBoolean();
        }

        @Override
        public void wakeWaiters() {
        }
    }

    private static Field field(Class<?> type, String name) throws ReflectiveOperationException {
        Field field = type.getDeclaredField(name);
        field.setAccessible(true);
        return field;
    }

    /** A completion with no cause, as the ring's callers fill one. */
    private static CompletionRecord completion(long tag, WorkOpcode opcode, CompletionStatus status, long byteLength,
                                               boolean solicited, int invalidatedStag, String detail) {
        return new CompletionRecord().set(tag, opcode, status, byteLength, solicited, invalidatedStag, detail,
                CompletionCause.NONE);
    }
}
