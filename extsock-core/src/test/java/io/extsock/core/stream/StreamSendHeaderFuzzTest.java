package io.extsock.core.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.fuzz.Fuzz;
import io.extsock.core.fuzz.Mutator;
import io.extsock.core.mpa.MpaAgreement;
import io.extsock.core.mpa.MpaRole;
import io.extsock.core.mpa.PrivateData;
import io.extsock.core.verbs.MemoryRegistry;
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
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the stream protocol's per-Send header (type, flags, credits returned; {@link
 * StreamHeader}) as {@link StreamInput} receives it: sequences of hostile stream Sends (mutants
 * of DATA, CREDIT and FIN messages: unknown types, short messages, any flags, any credits),
 * each completed into a buffer the stream had posted, as the queue pair would, with reads in
 * between. Only a typed end may follow: the stream fails, and reads then throw {@link
 * SocketException} once the data before is read; the data delivered is exactly the DATA
 * payloads in order; nothing blocks, and the writer's credits never go negative.
 *
 * <p>The queue pair's own receive side (framing, DDP, placement) is not exercised here: its
 * harness is another's. The queue pair here is real but driven by a driver that never blocks.
 */
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

    /** Up to 24 messages, each behind a 2-octet length. */
    private static byte[] messages(SplittableRandom random) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int count = random.nextInt(1, 25);
        for (int i = 0; i < count; i++) {
            int type = 1 + random.nextInt(3);
            byte[] payload = new byte[type == StreamHeader.DATA ? random.nextInt(0, 40) : 0];
            random.nextBytes(payload);
            ByteBuffer valid = ByteBuffer.allocate(StreamHeader.LENGTH + payload.length);
            StreamHeader.put(valid, type, random.nextInt(4) == 0 ? StreamHeader.WAITED : 0, random.nextInt(0, 3));
            valid.put(payload);
            byte[] message = random.nextInt(3) == 0 ? Mutator.mutate(random, valid.array(), FIELDS, null)
                    : valid.array();
            out.write(message.length >>> 8);
            out.write(message.length);
            out.writeBytes(message);
        }
        return out.toByteArray();
    }

    private static void deliver(byte[] input, SplittableRandom random) throws Exception {
        QueuePair queuePair = new QueuePair(new MpaAgreement(MpaRole.INITIATOR, 2, true, true, false, false, 16, 16,
                false, Optional.empty(), PrivateData.EMPTY), 65484, new MemoryRegistry(), new NeverBlocks());
        StreamOutput output = new StreamOutput(queuePair, IwarpStream.RECEIVE_BUFFERS, BUFFER_SIZE);
        StreamInput stream = new StreamInput(queuePair, IwarpStream.RECEIVE_BUFFERS, IwarpStream.MAX_RECEIVE_BUFFERS,
                BUFFER_SIZE, new byte[0], output);
        output.connect(stream);
        stream.postAll();
        ByteBuffer[] buffers = (ByteBuffer[]) field(StreamInput.class, "buffers").get(stream);

        boolean[] posted = new boolean[IwarpStream.MAX_RECEIVE_BUFFERS];
        Arrays.fill(posted, 0, IwarpStream.RECEIVE_BUFFERS, true);
        int known = IwarpStream.RECEIVE_BUFFERS;
        ArrayDeque<int[]> filled = new ArrayDeque<>(); // {tag, octets left to read}
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        boolean failed = false;
        boolean finished = false;
        for (int at = 0; at + 2 <= input.length && !failed; ) {
            // A longer Send never reaches the stream: DDP refuses it (message too long for the buffer).
            int length = Math.min(Math.min((input[at] & 0xFF) << 8 | input[at + 1] & 0xFF, input.length - at - 2),
                    BUFFER_SIZE);
            byte[] message = Arrays.copyOfRange(input, at + 2, at + 2 + length);
            at += 2 + Math.min((input[at] & 0xFF) << 8 | input[at + 1] & 0xFF, input.length - at - 2);
            int tag = firstPosted(posted);
            if (tag < 0) {
                break; // no buffer posted: the queue pair would end the connection (DDP no buffer)
            }
            buffers[tag].clear().put(message);
            stream.complete(tag, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, length, false, 0, null);
            int type = length >= StreamHeader.LENGTH ? message[0] & 0xFF : -1;
            if (type < StreamHeader.DATA || type > StreamHeader.FIN) {
                failed = true;
                posted[tag] = false;
            } else if (type == StreamHeader.DATA && length > StreamHeader.LENGTH) {
                posted[tag] = false;
                filled.add(new int[] {tag, length - StreamHeader.LENGTH});
                expected.write(message, StreamHeader.LENGTH, length - StreamHeader.LENGTH);
            } else if (type == StreamHeader.FIN) {
                finished = true;
            }
            for (int window = stream.windowBuffers(); known < window; known++) {
                posted[known] = true;
            }
            if (random.nextInt(3) == 0) {
                readSome(stream, random, filled, posted, read);
            }
            assertTrue((int) field(StreamOutput.class, "credits").get(output) >= 0, "the writer's credits");
        }
        while (!filled.isEmpty()) {
            readSome(stream, random, filled, posted, read);
        }
        assertArrayEquals(expected.toByteArray(), read.toByteArray(), "the stream's data");
        assertEquals(0, stream.available());
        byte[] one = new byte[1];
        if (finished) {
            assertEquals(-1, stream.read(one, 0, 1, 0), "end of stream after a FIN");
        } else if (failed) {
            assertThrows(SocketException.class, () -> stream.read(one, 0, 1, 0));
        }
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

    private static int firstPosted(boolean[] posted) {
        for (int i = 0; i < posted.length; i++) {
            if (posted[i]) {
                return i;
            }
        }
        return -1;
    }

    private static Field field(Class<?> type, String name) throws ReflectiveOperationException {
        Field field = type.getDeclaredField(name);
        field.setAccessible(true);
        return field;
    }

    /** A driver that transmits nothing and never waits: a wait sees the condition as it is. */
    private static final class NeverBlocks implements QueuePair.Driver {
        @Override
        public void transmitPending() {
        }

        @Override
        public void closeRequested() {
        }

        @Override
        public boolean await(BooleanSupplier condition, long timeoutNanos, boolean interruptible) {
            return condition.getAsBoolean();
        }

        @Override
        public void wakeWaiters() {
        }
    }
}
