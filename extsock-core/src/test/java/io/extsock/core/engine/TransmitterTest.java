package io.extsock.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.mpa.MpaAgreement;
import io.extsock.core.mpa.MpaRole;
import io.extsock.core.mpa.PrivateData;
import io.extsock.core.verbs.CompletionRing;
import io.extsock.core.verbs.ConnectionCounters;
import io.extsock.core.verbs.InlineWait;
import io.extsock.core.verbs.MemoryRegistry;
import io.extsock.core.verbs.QueuePair;
import io.extsock.core.verbs.QueuePairVerbs;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpSettings;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The transmit half of the duty cycle over a transport of the test's own, which takes as many
 * octets as the test gives it room for: backpressure, resuming, the batching of what processing
 * finds, and the end, each on the test's thread, with no socket and no sleep.
 */
class TransmitterTest {

    private static final int SEND_LENGTH = 100;

    /** Takes at most {@link #room} octets, all of it written so far kept in {@link #taken}. */
    private static class RoomyTransport implements ByteTransport {
        long room = Long.MAX_VALUE;
        int writes;
        final ByteArrayOutputStream taken = new ByteArrayOutputStream();

        @Override
        public int read(ByteBuffer into) {
            return 0;
        }

        @Override
        public int write(ByteBuffer from) throws IOException {
            writes++;
            return take(from);
        }

        @Override
        public long write(ByteBuffer[] from, int offset, int length) throws IOException {
            writes++;
            long written = 0;
            for (int i = offset; i < offset + length; i++) {
                written += take(from[i]);
            }
            return written;
        }

        private int take(ByteBuffer from) {
            int count = (int) Math.min(from.remaining(), room);
            for (int i = 0; i < count; i++) {
                taken.write(from.get());
            }
            room -= count;
            return count;
        }
    }

    private final RoomyTransport transport = new RoomyTransport();
    private final ReentrantLock receiveLock = new ReentrantLock();
    private boolean ended;
    private int roomWatches;
    private int transmittedSignals;
    private String failure;
    private IOException failureCause;
    private Transmitter transmitter;
    private final QueuePair queuePair;
    private final QueuePairVerbs verbs;
    private final MemoryRegion source;

    TransmitterTest() throws IOException {
        MpaAgreement agreement = new MpaAgreement(MpaRole.INITIATOR, 2, true, true, false, false, 8, 8, true,
                Optional.empty(), PrivateData.EMPTY);
        MemoryRegistry registry = new MemoryRegistry();
        InlineWait noProgress = new InlineWait() {
            @Override
            public boolean await(BooleanSupplier condition, long timeoutNanos, boolean interruptible) {
                return condition.getAsBoolean();
            }

            @Override
            public void wakeWaiters() {
            }
        };
        QueuePair.Driver driver = new QueuePair.Driver() {
            @Override
            public void transmitPending() {
                transmitter.request();
            }

            @Override
            public void closeRequested() {
            }
        };
        queuePair = new QueuePair(agreement, SoftwareIwarpProvider.pipeline(agreement, 1460), registry, driver,
                noProgress, ConnectionCounters.unnamed());
        verbs = new QueuePairVerbs(queuePair, noProgress, registry,
                new CompletionRing(QueuePair.SEND_QUEUE_DEPTH + QueuePair.RECEIVE_QUEUE_DEPTH),
                new IwarpSettings(2, true, false, false, 8, 8, 1460, true), new byte[0]);
        transmitter = transmitterOver(transport);
        source = verbs.register(ByteBuffer.allocateDirect(SEND_LENGTH), EnumSet.of(Access.LOCAL_WRITE));
    }

    @Test
    void aPostIsFramedAndWrittenOnThePostersThreadInOneWrite() throws Exception {
        send(1);

        assertEquals(1, transport.writes);
        assertTrue(transport.taken.size() > SEND_LENGTH, "header, payload and CRC: " + transport.taken.size());
        assertEquals(CompletionStatus.SUCCESS, completion().status());
        assertFalse(transmitter.blocked());
        assertTrue(transmittedSignals > 0, "waiters for send completions were told");
    }

    @Test
    void aTransportWithoutRoomBlocksUntilResumedAndThenEverythingGoesOutInOrder() throws Exception {
        transport.room = 10;
        send(1);
        assertTrue(transmitter.blocked());
        assertEquals(1, roomWatches, "the progress thread is asked to watch for room once");
        assertEquals(10, transport.taken.size());

        int writesWhileBlocked = transport.writes;
        send(2);
        assertEquals(writesWhileBlocked, transport.writes, "a post while blocked leaves the writing to the resume");
        assertEquals(0, verbs.completions().size(), "nothing completed before its octets went out");

        transport.room = Long.MAX_VALUE;
        transmitter.resume();

        assertFalse(transmitter.blocked());
        assertEquals(1, completion().tag());
        assertEquals(2, completion().tag());
        assertEquals(2 * framedLengthOfOneSend(), transport.taken.size());
    }

    @Test
    void whatProcessingFindsGoesOutAFewAtATimeAndTheRestAtItsEnd() throws Exception {
        receiveLock.lock();
        try {
            transmitter.processing(() -> {
                try {
                    for (int i = 0; i < Transmitter.TRANSMIT_EVERY_FOUND - 1; i++) {
                        send(i);
                    }
                    assertEquals(0, transport.writes, "held for the batch");
                    send(Transmitter.TRANSMIT_EVERY_FOUND - 1);
                    assertEquals(1, transport.writes, "the batch went out in one gathering write");
                    send(Transmitter.TRANSMIT_EVERY_FOUND);
                    assertEquals(1, transport.writes, "the next batch is held again");
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            });
        } finally {
            receiveLock.unlock();
        }

        assertEquals(2, transport.writes, "the rest went out when processing ended");
        for (int i = 0; i <= Transmitter.TRANSMIT_EVERY_FOUND; i++) {
            assertEquals(i, completion().tag());
        }
    }

    @Test
    void aGatherStuckBehindBackpressureFlushesItsRequestsWithAnErrorWhenTheConnectionEnds() throws Exception {
        transport.room = 10;
        send(7);
        assertTrue(transmitter.blocked());

        ended = true;
        queuePair.connectionLost("the test ended it");
        transmitter.abandonIfFree();

        WorkCompletion flushed = completion();
        assertEquals(7, flushed.tag());
        assertTrue(flushed.status() != CompletionStatus.SUCCESS, flushed.toString());
    }

    @Test
    void aFailingTransportEndsTheConnectionWithTheReason() throws Exception {
        ByteTransport failing = new RoomyTransport() {
            @Override
            public int write(ByteBuffer from) throws IOException {
                throw new IOException("Broken pipe");
            }

            @Override
            public long write(ByteBuffer[] from, int offset, int length) throws IOException {
                throw new IOException("Broken pipe");
            }
        };
        transmitter = transmitterOver(failing);

        send(3);

        assertEquals("sending failed: Broken pipe", failure);
        assertNotNull(failureCause, "the transport's exception");
        WorkCompletion failed = completion();
        assertEquals(3, failed.tag());
        assertTrue(failed.status() != CompletionStatus.SUCCESS, failed.toString());
    }

    /** A transmitter over {@code transport}, for this test's queue pair, reporting to this test's fields. */
    private Transmitter transmitterOver(ByteTransport transport) {
        Transmitter.Connection connection = new Transmitter.Connection() {
            @Override
            public boolean ended() {
                return ended;
            }

            @Override
            public void transmitFailed(String reason, IOException cause) {
                failure = reason;
                failureCause = cause;
                queuePair.connectionLost(reason);
                ended = true;
            }

            @Override
            public void transmitted() {
                transmittedSignals++;
            }

            @Override
            public void watchForRoom() {
                roomWatches++;
            }
        };
        IdleStrategy idle = new IdleStrategy(null, null, new ReadingOwnership(), new InlineSpin(0));
        return new Transmitter(transport, queuePair, connection, idle, receiveLock, ByteBuffer.allocateDirect(64 * 1024));
    }

    private void send(long tag) throws IOException {
        verbs.post(new SendRequest().tag(tag).gather(source.slice(0, SEND_LENGTH)));
    }

    private WorkCompletion completion() throws InterruptedException {
        WorkCompletion completion = verbs.completions().take(1, TimeUnit.MILLISECONDS);
        assertNotNull(completion, "a completion is there");
        return completion;
    }

    /** What one Send of {@link #SEND_LENGTH} octets takes on the wire, measured on a transport with room. */
    private static int framedLengthOfOneSend() throws IOException {
        TransmitterTest other = new TransmitterTest();
        other.send(0);
        return other.transport.taken.size();
    }
}
