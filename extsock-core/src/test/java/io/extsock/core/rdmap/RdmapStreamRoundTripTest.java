package io.extsock.core.rdmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.extsock.core.ddp.DdpConstants;
import io.extsock.core.ddp.MessageSequenceNumbers;
import io.extsock.core.mpa.FpduDeframer;
import io.extsock.core.mpa.FpduFramer;
import io.extsock.core.mpa.GatherWrite;
import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The three layers together, as a peer's bytes would cross them: random RDMAP messages are
 * written by {@link MessageWriter} (DDP segmentation, RDMAP headers, MPA framing) and read back
 * by {@link SegmentReader} (MPA deframing, header decoding, DDP bookkeeping, placement) from the
 * byte stream cut at random points. decode(encode(x)) must equal x for every mix of message
 * kinds and sizes, FPDU limit, markers on or off and CRC on or off; damaged streams must end in
 * a {@link ProtocolViolationException} and never deliver damaged data when CRC is on.
 */
class RdmapStreamRoundTripTest {

    private static final int ROUNDS = Boolean.getBoolean("extsock.long") ? 4000 : 60;

    private static final RdmapOpcode[] KINDS = {
        RdmapOpcode.SEND, RdmapOpcode.SEND_WITH_INVALIDATE, RdmapOpcode.SEND_WITH_SOLICITED_EVENT,
        RdmapOpcode.SEND_WITH_SOLICITED_EVENT_AND_INVALIDATE, RdmapOpcode.RDMA_WRITE,
        RdmapOpcode.RDMA_READ_RESPONSE, RdmapOpcode.RDMA_READ_REQUEST,
    };

    /** One random scenario: stream settings and the messages written. */
    private record Scenario(boolean crc, boolean markers, int maxFpduSize, List<StreamMessage> messages,
                            byte[] wire) {
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    @DisplayName("RFC 5040/5041/5044: decode(encode(messages)) == messages at any split of the stream")
    void roundTrip(long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < ROUNDS; round++) {
            Scenario scenario = randomScenario(random);
            List<StreamMessage> decoded = decode(scenario, scenario.wire, random.split());
            assertEquals(scenario.messages, decoded, () -> describe(scenario));
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {11, 12, 13})
    @DisplayName("RFC 5044 section 8: with CRC, damaged FPDUs end in a violation, never in damaged data")
    void corruptionWithCrcIsCaught(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < ROUNDS * 2; round++) {
            Scenario scenario = randomScenario(random, true);
            if (scenario.wire.length == 0) {
                continue;
            }
            byte[] damaged = scenario.wire.clone();
            int flips = 1 + random.nextInt(3);
            int firstDamage = damaged.length;
            for (int i = 0; i < flips; i++) {
                int at = random.nextInt(damaged.length);
                damaged[at] ^= (byte) (1 << random.nextInt(8));
                firstDamage = Math.min(firstDamage, at);
            }
            CollectingSink sink = new CollectingSink();
            try {
                feed(new SegmentReader(new FpduDeframer(true, scenario.markers), sink), damaged, random.split());
            } catch (ProtocolViolationException expected) {
                // the damage was seen
            } catch (RuntimeException e) {
                fail("damage must end in a ProtocolViolationException, not " + e + "\n" + describe(scenario), e);
            }
            if (!scenario.markers) {
                // Nothing of a damaged FPDU is believed: no segment from it or after it reaches the sink.
                int intact = fpdusBefore(scenario.wire, firstDamage);
                assertTrue(sink.segmentsStarted <= intact, () -> sink.segmentsStarted + " segments reached the sink,"
                        + " only " + intact + " FPDUs came before the damage\n" + describe(scenario));
            }
            // Whatever was delivered before the damage showed is what was sent.
            assertTrue(sink.messages.size() <= scenario.messages.size());
            assertEquals(scenario.messages.subList(0, sink.messages.size()), sink.messages,
                    () -> "damaged data was delivered\n" + describe(scenario));
            assertTrue(sink.messages.size() < scenario.messages.size() || !java.util.Arrays.equals(damaged, scenario.wire),
                    "a damaged stream delivered every message");
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {21, 22})
    @DisplayName("Hostile bytes end in a ProtocolViolationException or in waiting for more, nothing else")
    void hostileStreamsOnlyEverFailAsViolations(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < ROUNDS * 20; round++) {
            byte[] hostile = new byte[random.nextInt(1, 400)];
            random.nextBytes(hostile);
            if (hostile.length >= 4 && random.nextBoolean()) {
                // A plausible start: a small length field and valid control octets.
                hostile[0] = 0;
                hostile[1] = (byte) random.nextInt(0, 80);
                hostile[2] = (byte) (random.nextBoolean() ? 0x41 : 0xC1);
                hostile[3] = (byte) (0x40 | random.nextInt(16));
            }
            boolean crc = random.nextBoolean();
            boolean markers = random.nextBoolean();
            try {
                feed(new SegmentReader(new FpduDeframer(crc, markers), new CollectingSink()), hostile, random.split());
            } catch (ProtocolViolationException expected) {
                assertTrue(expected.terminateCause() != null);
            } catch (RuntimeException e) {
                fail("hostile input must end in a ProtocolViolationException, not " + e, e);
            }
        }
    }

    private static Scenario randomScenario(SplittableRandom random) {
        return randomScenario(random, random.nextBoolean());
    }

    private static Scenario randomScenario(SplittableRandom random, boolean crc) {
        boolean markers = random.nextInt(3) == 0;
        int maxFpduSize = random.nextInt(4) == 0 ? random.nextInt(128, 66_000) : 1448;
        FpduFramer framer = new FpduFramer(crc, markers);
        MessageWriter writer = new MessageWriter(framer, FpduFramer.maxUlpduLength(maxFpduSize, markers));
        GatherWrite gather = new GatherWrite(512, 32 * 1024);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        MessageSequenceNumbers msns = new MessageSequenceNumbers();
        List<StreamMessage> messages = new ArrayList<>();
        int count = random.nextInt(1, 12);
        for (int i = 0; i < count; i++) {
            RdmapOpcode kind = KINDS[random.nextInt(KINDS.length)];
            messages.add(write(kind, random, writer, msns, gather, wire));
        }
        if (random.nextInt(4) == 0) {
            TerminateCause cause = TerminateCause.values()[random.nextInt(TerminateCause.values().length)];
            int msn = msns.assign(DdpConstants.QN_TERMINATE);
            writer.startTerminate(msn, new TerminateHeader().reset(cause));
            drainUntilWritten(writer, gather, wire);
            messages.add(new StreamMessage(RdmapOpcode.TERMINATE, 0, 0, msn, 0, null, cause, null));
        }
        drain(gather, wire);
        return new Scenario(crc, markers, maxFpduSize, messages, wire.toByteArray());
    }

    private static StreamMessage write(RdmapOpcode kind, SplittableRandom random, MessageWriter writer,
                                       MessageSequenceNumbers msns, GatherWrite gather, ByteArrayOutputStream wire) {
        if (kind == RdmapOpcode.RDMA_READ_REQUEST) {
            ReadRequestHeader request = new ReadRequestHeader().set(random.nextInt(), random.nextLong(0, 1L << 40),
                    random.nextLong(0, 1L << 32), random.nextInt(), random.nextLong(0, 1L << 40));
            int msn = msns.assign(DdpConstants.QN_READ_REQUEST);
            writer.startReadRequest(msn, request);
            drainUntilWritten(writer, gather, wire);
            return new StreamMessage(kind, 0, 0, msn, 0, new ReadRequestHeader().copyFrom(request), null, null);
        }
        byte[] payload = new byte[random.nextInt(8) == 0 ? random.nextInt(0, 200_000) : random.nextInt(0, 3000)];
        random.nextBytes(payload);
        ByteBuffer[] pieces = split(payload, random);
        if (kind.tagged()) {
            int stag = random.nextInt();
            long to = random.nextLong(0, 1L << 40);
            if (kind == RdmapOpcode.RDMA_WRITE) {
                writer.startWrite(stag, to, pieces, 0, pieces.length);
            } else {
                writer.startReadResponse(stag, to, pieces, 0, pieces.length);
            }
            drainUntilWritten(writer, gather, wire);
            return new StreamMessage(kind, stag, to, 0, 0, null, null, payload);
        }
        int invalidate = kind.invalidatesStag() ? random.nextInt() : 0;
        int msn = msns.assign(DdpConstants.QN_SEND);
        writer.startSend(kind, invalidate, msn, pieces, 0, pieces.length);
        drainUntilWritten(writer, gather, wire);
        return new StreamMessage(kind, 0, 0, msn, invalidate, null, null, payload);
    }

    /** The payload in up to four buffers, heap and direct, some with an offset position. */
    private static ByteBuffer[] split(byte[] payload, SplittableRandom random) {
        int pieces = random.nextInt(1, 5);
        ByteBuffer[] buffers = new ByteBuffer[pieces];
        int from = 0;
        for (int i = 0; i < pieces; i++) {
            int to = i == pieces - 1 ? payload.length : from + random.nextInt(0, payload.length - from + 1);
            int lead = random.nextInt(0, 8);
            ByteBuffer buffer = random.nextBoolean()
                    ? ByteBuffer.allocateDirect(lead + to - from) : ByteBuffer.allocate(lead + to - from);
            buffer.position(lead);
            buffer.put(payload, from, to - from);
            buffer.position(lead);
            buffers[i] = buffer;
            from = to;
        }
        return buffers;
    }

    private static void drainUntilWritten(MessageWriter writer, GatherWrite gather, ByteArrayOutputStream wire) {
        while (!writer.writeTo(gather)) {
            drain(gather, wire);
        }
    }

    /** What a gathering write would put on the wire: every buffer's remaining octets in order. */
    static void drain(GatherWrite gather, ByteArrayOutputStream wire) {
        for (int i = 0; i < gather.count(); i++) {
            ByteBuffer buffer = gather.buffers()[i];
            byte[] octets = new byte[buffer.remaining()];
            buffer.get(octets);
            wire.write(octets, 0, octets.length);
        }
        gather.reset();
    }

    private static List<StreamMessage> decode(Scenario scenario, byte[] wire, SplittableRandom random)
            throws ProtocolViolationException {
        CollectingSink sink = new CollectingSink();
        feed(new SegmentReader(new FpduDeframer(scenario.crc, scenario.markers), sink), wire, random);
        return sink.messages;
    }

    /**
     * Feeds the stream in random pieces, one octet at a time now and then, and sometimes the
     * way the engine reads large payloads: straight into the placement buffer.
     */
    private static void feed(SegmentReader reader, byte[] wire, SplittableRandom random)
            throws ProtocolViolationException {
        boolean oneAtATime = random.nextInt(8) == 0;
        int position = 0;
        while (position < wire.length) {
            int left = wire.length - position;
            int direct = reader.directCapacity();
            if (direct > 0 && random.nextBoolean()) {
                int count = Math.min(Math.min(direct, left), 1 + random.nextInt(70_000));
                reader.directTarget().put(wire, position, count);
                reader.placedDirectly(count);
                position += count;
                continue;
            }
            int count = oneAtATime ? 1 : Math.min(left, 1 + random.nextInt(random.nextBoolean() ? 64 : 70_000));
            ByteBuffer input = ByteBuffer.wrap(wire, position, count);
            reader.read(input);
            assertEquals(0, input.remaining(), "the reader consumes all its input");
            position += count;
        }
    }

    private static String describe(Scenario scenario) {
        return "crc=" + scenario.crc + " markers=" + scenario.markers + " maxFpduSize=" + scenario.maxFpduSize
                + " wire=" + scenario.wire.length + " octets, messages=" + scenario.messages;
    }

    /** FPDUs (no markers) that end before {@code offset}: length field, ULPDU, pad, CRC. */
    private static int fpdusBefore(byte[] wire, int offset) {
        int count = 0;
        int at = 0;
        while (at + 2 <= wire.length) {
            int ulpdu = ((wire[at] & 0xFF) << 8) | (wire[at + 1] & 0xFF);
            int end = at + ((2 + ulpdu + 3) & ~3) + 4;
            if (end > offset) {
                break;
            }
            count++;
            at = end;
        }
        return count;
    }
}
