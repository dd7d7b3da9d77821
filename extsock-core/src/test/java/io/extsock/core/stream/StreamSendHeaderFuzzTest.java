package io.extsock.core.stream;

import static io.extsock.core.stream.HandDrivenStream.completion;
import static io.extsock.core.stream.HandDrivenStream.field;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.fuzz.Fuzz;
import io.extsock.core.fuzz.Mutator;
import io.extsock.core.verbs.InlineWait;
import io.extsock.core.verbs.QueuePair;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.WorkOpcode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the stream protocol's per-Send header (type, flags, credits returned; {@link
 * StreamHeader}) as {@link StreamInput} receives it: sequences of hostile stream Sends (mutants
 * of DATA, CREDIT and FIN messages: unknown types, short messages, any flags, any credits),
 * each completed into the oldest receive the stream had posted, taken from the queue pair's
 * receive queue as its receive side would, with reads in between. A message breaks the
 * protocol exactly when this harness's own model of the rules says so (below, written apart
 * from {@link StreamHeader#violation}); then the connection ends at once (the queue pair is no
 * longer connected, TCP is closed) and reads throw {@link SocketException} naming the peer's
 * fault once the data before is read. Otherwise the connection stays up. The data delivered is
 * exactly the DATA payloads in order; nothing blocks, and the writer's credits never go
 * negative. A small DATA payload that fits behind the unread bytes of the last filled buffer is
 * appended there and its own buffer posted again at once (as the model here says too).
 *
 * <p>The queue pair's own receive side (framing, DDP, placement) is not exercised here: its
 * harness is another's. The queue pair here is real but driven by a driver that never blocks.
 * Our own Sends complete at once, as to a peer that reads its socket, or, for a quarter of the
 * inputs, never, as to a peer that reads nothing: then our credit updates must not pile up in
 * the send queue (at most one CREDIT is outstanding; a full queue would make posting throw
 * IllegalStateException on the receive path, as for input {@code 0004e09b0200fffd}, one CREDIT
 * message repeated 57499 times).
 */
@Tag("stress")
@Timeout(value = 30, unit = TimeUnit.MINUTES)  // per test: a hang fails; the long runs' largest surface takes minutes
class StreamSendHeaderFuzzTest {

    /** Smaller than the real 64 KiB, which would cost a 256 KiB direct allocation per input; messages fit it. */
    private static final int BUFFER_SIZE = 1024;

    private static final Mutator.Field[] FIELDS = {new Mutator.Field(0, 1), new Mutator.Field(1, 1),
        new Mutator.Field(2, 2), new Mutator.Field(2, 1)};

    @Test
    void hostileStreamSends() {
        Fuzz.Stats stats = Fuzz.run("stream per-Send header", Fuzz.inputs(10_000), StreamSendHeaderFuzzTest::messages,
                StreamSendHeaderFuzzTest::deliver);
        assertTrue(stats.accepted > 0, stats.toString());
    }

    // ---- regressions: what the fuzzer found -------------------------------------------------

    /**
     * One CREDIT message returning 65533 credits, 57499 times: summed without a bound, the
     * writer's credits would overflow to negative and every write wait for ever. The first one
     * ends the connection: no peer has more than a receive queue's 512 buffers posted.
     */
    @Test
    void creditsPastAnyWindowFailTheStream_0004e09b0200fffd() throws Exception {
        deliver(java.util.HexFormat.of().parseHex("0004e09b0200fffd"), new SplittableRandom(210));
    }

    /** The same at the writer: after such credits a write fails, naming why, instead of waiting. */
    @Test
    void aWriteAfterCreditsPastAnyWindowFails() throws Exception {
        QueuePair queuePair = queuePair();
        StreamOutput output = new StreamOutput(queuePair, NEVER_BLOCKS, IwarpStream.RECEIVE_BUFFERS, BUFFER_SIZE,
                () -> { });
        output.connect(new StreamInput(queuePair, NEVER_BLOCKS, IwarpStream.RECEIVE_BUFFERS,
                IwarpStream.MAX_RECEIVE_BUFFERS, BUFFER_SIZE, new byte[0], output));
        output.creditsReturned(PeerWindow.MAX_PEER_CREDITS - IwarpStream.RECEIVE_BUFFERS);
        assertTrue(queuePair.isConnected(), "a window of a whole receive queue is still one a peer can have");
        output.creditsReturned(1);
        SocketException failure = assertThrows(SocketException.class, () -> output.write(new byte[1], 0, 1));
        assertTrue(failure.getMessage().contains("returned 1 stream credits on top of 512, more receive buffers than"
                + " it can have posted (512)"), failure.getMessage());
        assertTrue(!queuePair.isConnected(), "the connection ended");
    }

    /**
     * Up to 24 messages, each behind a 2-octet length and a 2-octet repeat count: now and then
     * one message repeated up to 65535 times (a peer may send as many credit updates as it
     * likes, each in a buffer reposted at once), else each once.
     */
    private static byte[] messages(SplittableRandom random) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        boolean burst = random.nextInt(256) == 0;
        int count = burst ? 1 : random.nextInt(1, 25);
        for (int i = 0; i < count; i++) {
            int type = 1 + random.nextInt(3);
            byte[] payload = new byte[type == StreamHeader.DATA ? random.nextInt(0, 40) : 0];
            random.nextBytes(payload);
            ByteBuffer valid = ByteBuffer.allocate(StreamHeader.LENGTH + payload.length);
            StreamHeader.put(valid, type, random.nextInt(4) == 0 ? StreamHeader.WAITED : 0, random.nextInt(0, 3));
            valid.put(payload);
            byte[] message = random.nextInt(3) == 0 ? Mutator.mutate(random, valid.array(), FIELDS, null)
                    : valid.array();
            int repeat = burst ? random.nextInt(1, 0x10000) : 1;
            if (burst && random.nextBoolean()) {
                Mutator.setField(random, message, new Mutator.Field(2, 2));
            }
            out.write(message.length >>> 8);
            out.write(message.length);
            out.write(repeat >>> 8);
            out.write(repeat);
            out.writeBytes(message);
        }
        return out.toByteArray();
    }

    private static void deliver(byte[] input, SplittableRandom random) throws Exception {
        QueuePair queuePair = queuePair();
        boolean[] connectionClosed = new boolean[1];
        StreamOutput output = new StreamOutput(queuePair, NEVER_BLOCKS, IwarpStream.RECEIVE_BUFFERS, BUFFER_SIZE,
                () -> connectionClosed[0] = true);
        StreamInput stream = new StreamInput(queuePair, NEVER_BLOCKS, IwarpStream.RECEIVE_BUFFERS,
                IwarpStream.MAX_RECEIVE_BUFFERS, BUFFER_SIZE, new byte[0], output);
        output.connect(stream);
        stream.postAll();
        boolean peerReadsNothing = random.nextInt(4) == 0;

        boolean[] posted = new boolean[IwarpStream.MAX_RECEIVE_BUFFERS];
        Arrays.fill(posted, 0, IwarpStream.RECEIVE_BUFFERS, true);
        int known = IwarpStream.RECEIVE_BUFFERS;
        ArrayDeque<int[]> filled = new ArrayDeque<>(); // {tag, octets left to read, where its data ends}
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        boolean failed = false;
        boolean finished = false;
        ArrayDeque<?> receiveQueue = HandDrivenStream.queue(queuePair, "receives", "queue");
        Field receiveTag = field(Class.forName("io.extsock.core.verbs.ReceiveWork"), "tag");
        ArrayDeque<?> inFlight = HandDrivenStream.queue(queuePair, "sends", "inFlight");
        ArrayDeque<?> unframed = HandDrivenStream.queue(queuePair, "sends", "unframed");
        Class<?> sendWork = Class.forName("io.extsock.core.verbs.SendWork");
        Field sendCompleter = field(sendWork, "completer");
        Field sendTag = field(sendWork, "tag");
        int repeat = 0;
        byte[] message = null;
        for (int at = 0; !failed; ) {
            if (repeat == 0) {
                if (at + 4 > input.length) {
                    break;
                }
                int announced = Math.min((input[at] & 0xFF) << 8 | input[at + 1] & 0xFF, input.length - at - 4);
                repeat = Math.max(1, (input[at + 2] & 0xFF) << 8 | input[at + 3] & 0xFF);
                // A longer Send never reaches the stream: DDP refuses it (message too long for the buffer).
                message = Arrays.copyOfRange(input, at + 4, at + 4 + Math.min(announced, BUFFER_SIZE));
                at += 4 + announced;
            }
            repeat--;
            int length = message.length;
            // As the queue pair does: a Send takes the oldest receive posted.
            Object work = receiveQueue.poll();
            if (work == null) {
                break; // no buffer posted: the queue pair would end the connection (DDP no buffer)
            }
            int tag = (int) (long) receiveTag.get(work);
            assertTrue(posted[tag], "buffer " + tag + " was not posted");
            boolean breaks = breaksTheProtocol(message, finished, output.creditsNow());
            stream.receiveBuffer(tag).clear().put(message);
            stream.complete(completion(tag, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, length, false, 0, null));
            if (breaks) {
                failed = true;
                posted[tag] = false;
                assertTrue(!queuePair.isConnected() && connectionClosed[0], "the connection ends at once");
                break;
            }
            assertTrue(queuePair.isConnected() && !connectionClosed[0], "a message that keeps the rules ends nothing");
            int type = message[0] & 0xFF;
            if (type == StreamHeader.DATA) {
                int payload = length - StreamHeader.LENGTH;
                int[] last = filled.peekLast();
                if (last != null && payload <= FilledBuffers.MAX_APPENDED && BUFFER_SIZE - last[2] >= payload) {
                    last[1] += payload;  // appended behind the unread bytes; its own buffer is posted again
                    last[2] += payload;
                } else {
                    posted[tag] = false;
                    filled.add(new int[] {tag, payload, length});
                }
                expected.write(message, StreamHeader.LENGTH, payload);
            } else if (type == StreamHeader.FIN) {
                finished = true;
            }
            if (!peerReadsNothing) {
                drainSends(inFlight, unframed, sendCompleter, sendTag);
            }
            assertTrue(inFlight.size() <= 1, "our credit updates pile up: " + inFlight.size() + " Sends outstanding");
            for (int window = stream.windowBuffers(); known < window; known++) {
                posted[known] = true;
            }
            if (random.nextInt(3) == 0) {
                readSome(stream, random, filled, posted, read);
            }
            assertTrue(output.creditsNow() >= 0, "the writer's credits");
        }
        while (!filled.isEmpty()) {
            readSome(stream, random, filled, posted, read);
        }
        assertArrayEquals(expected.toByteArray(), read.toByteArray(), "the stream's data");
        assertEquals(0, stream.available());
        byte[] one = new byte[1];
        if (failed && !finished) {  // after the peer's FIN its stream is whole: end of stream, as before
            SocketException failure = assertThrows(SocketException.class, () -> stream.read(one, 0, 1, 0));
            assertTrue(failure.getMessage().startsWith("the peer broke extsock's stream protocol: "),
                    failure.getMessage());
        } else if (finished) {
            assertEquals(-1, stream.read(one, 0, 1, 0), "end of stream after a FIN");
        }
    }

    /**
     * The stream protocol's rules, as this harness reads them: a 4-octet header; type DATA (1)
     * with flags 0 or WAITED (1) and at least one data octet, never after a FIN; CREDIT (2) or
     * FIN (3) with no flags and no data, one FIN at most; and no more credits returned than a
     * receive queue (512) can have buffers posted.
     */
    private static boolean breaksTheProtocol(byte[] message, boolean finished, int writerCredits) {
        if (message.length < 4) {
            return true;
        }
        int type = message[0] & 0xFF;
        int flags = message[1] & 0xFF;
        int returned = (message[2] & 0xFF) << 8 | message[3] & 0xFF;
        boolean headerBreaks = switch (type) {
            case 1 -> (flags & ~1) != 0 || message.length == 4 || finished;
            case 2 -> flags != 0 || message.length > 4;
            case 3 -> flags != 0 || message.length > 4 || finished;
            default -> true;
        };
        return headerBreaks || writerCredits + returned > 512;
    }

    /** Reads part of what is there, as an application would; buffers read out go back to the posted. */
    private static void readSome(StreamInput stream, SplittableRandom random, ArrayDeque<int[]> filled,
            boolean[] posted, ByteArrayOutputStream read) throws IOException {
        int available = stream.available();
        assertEquals(filled.stream().mapToInt(entry -> entry[1]).sum(), available, "available()");
        if (available == 0) {
            return;
        }
        byte[] into = new byte[random.nextInt(1, available + 1)];
        int count = stream.read(into, 0, into.length, 0);
        assertTrue(count >= 1 && count <= into.length, "read " + count);
        read.write(into, 0, count);
        for (int left = count; left > 0; ) {
            int[] head = filled.peek();
            int taken = Math.min(left, head[1]);
            head[1] -= taken;
            left -= taken;
            if (head[1] == 0) {
                filled.remove();
                posted[head[0]] = true;
            }
        }
    }

    /**
     * Our stream's own Sends (credit updates) go out and complete, as they would to a peer that
     * reads its socket. A peer that reads nothing is another matter (see the class comment).
     */
    private static void drainSends(ArrayDeque<?> inFlight, ArrayDeque<?> unframed, Field completer, Field tag)
            throws ReflectiveOperationException {
        unframed.clear();
        Object work;
        while ((work = inFlight.poll()) != null) {
            ((io.extsock.core.verbs.WorkCompleter) completer.get(work)).complete(completion((long) tag.get(work),
                    WorkOpcode.SEND, CompletionStatus.SUCCESS, 0, false, 0, null));
        }
    }

    /** Stateless, so one serves every queue pair and stream here. */
    private static final NeverBlocks NEVER_BLOCKS = new NeverBlocks();

    /** A queue pair with the engine's own pipeline, on a driver that never blocks. */
    private static QueuePair queuePair() {
        return HandDrivenStream.queuePair(NEVER_BLOCKS, NEVER_BLOCKS);
    }

    /**
     * A driver that transmits nothing and never waits: a wait sees the condition as it is, and
     * one without a limit whose condition does not hold fails the test (nothing would end it).
     */
    private static final class NeverBlocks implements QueuePair.Driver, InlineWait {
        @Override
        public void transmitPending() {
        }

        @Override
        public void closeRequested() {
        }

        @Override
        public boolean await(BooleanSupplier condition, long timeoutNanos, boolean interruptible) {
            return HandDrivenStream.holdsOrFails(condition, timeoutNanos, () -> ", and nothing drives it");
        }

        @Override
        public void wakeWaiters() {
        }
    }
}
