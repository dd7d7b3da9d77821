package io.extsock.core.stream;

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
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * One stream over a real queue pair whose driver is the test: the peer's Sends are completed
 * into the stream's receive buffers as the queue pair's receive side would, and ours leave
 * (complete) only when the test says so. A wait of the stream is where the peer acts: {@link
 * #onWait} says how (by default it reads our Sends one by one, returning each DATA's buffer,
 * until the condition holds). A wait without a limit that the peer leaves unmet fails the test:
 * nothing else would ever end it.
 */
final class HandDrivenStream {

    static final int BUFFER_SIZE = 1024;

    /** What the hand-driven peer does when the stream waits. */
    interface Peer {
        void streamWaits(HandDrivenStream stream, BooleanSupplier condition) throws ReflectiveOperationException;
    }

    final Driver driver = new Driver();
    final QueuePair queuePair;
    final StreamOutput output;
    final StreamInput input;
    final ArrayDeque<?> inFlight;
    final ArrayDeque<?> receiveQueue;
    Peer onWait = HandDrivenStream::readEverySendReturningItsBuffer;
    private final Field receiveTag;
    private final Field sendCompleter;
    private final Field sendTag;
    private final Field sendLength;

    /** @param peerReceiveBuffers the peer's window: our writer's credits at first */
    HandDrivenStream(int peerReceiveBuffers) throws Exception {
        queuePair = queuePair(driver, driver);
        output = new StreamOutput(queuePair, driver, peerReceiveBuffers, BUFFER_SIZE, () -> { });
        input = new StreamInput(queuePair, driver, IwarpStream.RECEIVE_BUFFERS, IwarpStream.MAX_RECEIVE_BUFFERS,
                BUFFER_SIZE, new byte[0], output);
        output.connect(input);
        input.postAll();
        driver.stream = this;
        inFlight = queue(queuePair, "sends", "inFlight");
        receiveQueue = queue(queuePair, "receives", "queue");
        receiveTag = field(Class.forName("io.extsock.core.verbs.ReceiveWork"), "tag");
        Class<?> sendWork = Class.forName("io.extsock.core.verbs.SendWork");
        sendCompleter = field(sendWork, "completer");
        sendTag = field(sendWork, "tag");
        sendLength = field(sendWork, "length");
    }

    /**
     * A queue pair with the engine's own pipeline (CRC on, markers off), on {@code driver}: what
     * the stream tests drive by hand.
     */
    static QueuePair queuePair(QueuePair.Driver driver, InlineWait wait) {
        MpaAgreement agreement = new MpaAgreement(MpaRole.INITIATOR, 2, true, true, false, false, 16, 16, false,
                Optional.empty(), PrivateData.EMPTY);
        return new QueuePair(agreement, SoftwareIwarpProvider.pipeline(agreement, 65484), new MemoryRegistry(),
                driver, wait, ConnectionCounters.unnamed());
    }

    /** A message of the peer's, with no payload, arrives in the oldest receive buffer posted. */
    void receive(int type, int creditsReturned) throws ReflectiveOperationException {
        arrive(type, creditsReturned, 0);
    }

    /** A DATA message of the peer's with {@code payload} octets arrives in the oldest receive buffer posted. */
    void receiveData(int payload) throws ReflectiveOperationException {
        arrive(StreamHeader.DATA, 0, payload);
    }

    private void arrive(int type, int creditsReturned, int payload) throws ReflectiveOperationException {
        Object work = receiveQueue.poll();
        int tag = (int) (long) receiveTag.get(work);
        StreamHeader.put(input.receiveBuffer(tag).clear(), type, 0, creditsReturned);
        input.complete(completion(tag, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, StreamHeader.LENGTH + payload,
                false, 0, null));
    }

    /** Our oldest Send left: TCP took it. */
    void completeOldestSend() throws ReflectiveOperationException {
        Object work = inFlight.poll();
        long tag = (long) sendTag.get(work);
        ((WorkCompleter) sendCompleter.get(work)).complete(completion(tag, WorkOpcode.SEND,
                CompletionStatus.SUCCESS, 0, false, 0, null));
    }

    /** The stream tag (DATA, CREDIT, FIN) of each of our Sends not yet completed, oldest first. */
    java.util.List<Integer> sendsInFlight() throws ReflectiveOperationException {
        java.util.List<Integer> types = new java.util.ArrayList<>();
        for (Object work : inFlight) {
            types.add((int) (long) sendTag.get(work));
        }
        return types;
    }

    /** Payload octets of our oldest Send not yet completed (its stream header not counted). */
    int oldestSendPayload() throws ReflectiveOperationException {
        return (int) ((long) sendLength.get(inFlight.peek()) - StreamHeader.LENGTH);
    }

    int writerCredits() {
        return output.creditsNow();
    }

    int creditsOwed() {
        return input.creditsOwed();
    }

    /** The default peer: reads our Sends one by one, returning each one's buffer, until the condition holds. */
    static void readEverySendReturningItsBuffer(HandDrivenStream stream, BooleanSupplier condition)
            throws ReflectiveOperationException {
        while (!condition.getAsBoolean() && !stream.inFlight.isEmpty()) {
            stream.completeOldestSend();
            stream.driver.sendsCompleted++;
            stream.output.creditsReturned(1);
        }
    }

    /** Transmits nothing by itself; a wait is where the peer acts ({@link #onWait}). */
    static final class Driver implements QueuePair.Driver, InlineWait {
        HandDrivenStream stream;
        int mostInFlightSeen;
        int sendsCompleted;

        @Override
        public void transmitPending() {
        }

        @Override
        public void closeRequested() {
        }

        /** A stream's reads return its writer's credits: it never waits in a way that may doze. */
        @Override
        public boolean await(BooleanSupplier condition, long timeoutNanos, boolean interruptible) {
            throw new AssertionError("the stream waited with await, whose polls may sleep while its peer waits for"
                    + " credits: a stream waits with awaitPromptly");
        }

        @Override
        public boolean awaitPromptly(BooleanSupplier condition, long timeoutNanos, boolean interruptible) {
            mostInFlightSeen = Math.max(mostInFlightSeen, stream.inFlight.size());
            try {
                stream.onWait.streamWaits(stream, condition);
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
            return holdsOrFails(condition, timeoutNanos, () -> " for what the hand-driven peer did not give ("
                    + stream.inFlight.size() + " Sends in flight, " + stream.receiveQueue.size()
                    + " receive buffers posted)");
        }

        @Override
        public void wakeWaiters() {
        }
    }

    /**
     * The end of a wait on a stream that nothing but the test drives: whether the condition holds.
     * A wait without a limit whose condition does not hold would last for good (its callers look
     * again in a loop), so it fails the test instead of spinning.
     */
    static boolean holdsOrFails(BooleanSupplier condition, long timeoutNanos, Supplier<String> why) {
        boolean holds = condition.getAsBoolean();
        if (!holds && timeoutNanos <= 0) {
            throw new AssertionError("the stream waits without a limit" + why.get());
        }
        return holds;
    }

    /** A declared field of {@code type}, made accessible. */
    /** One of the queue pair's deques: in its WorkQueues, the {@code part} that holds it, then the deque itself. */
    static ArrayDeque<?> queue(QueuePair queuePair, String part, String name) throws ReflectiveOperationException {
        Object queues = field(QueuePair.class, "queues").get(queuePair);
        Object holder = field(queues.getClass(), part).get(queues);
        return (ArrayDeque<?>) field(holder.getClass(), name).get(holder);
    }

    static Field field(Class<?> type, String name) throws ReflectiveOperationException {
        Field field = type.getDeclaredField(name);
        field.setAccessible(true);
        return field;
    }

    /** A completion with no cause, as the ring's callers fill one. */
    static CompletionRecord completion(long tag, WorkOpcode opcode, CompletionStatus status, long byteLength,
                                       boolean solicited, int invalidatedStag, String detail) {
        return new CompletionRecord().set(tag, opcode, status, byteLength, solicited, invalidatedStag, detail,
                CompletionCause.NONE);
    }
}
