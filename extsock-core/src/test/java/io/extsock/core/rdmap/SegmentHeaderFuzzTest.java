package io.extsock.core.rdmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.ddp.DdpConstants;
import io.extsock.core.ddp.DdpReceiveBookkeeping;
import io.extsock.core.ddp.UntaggedBufferLookup;
import io.extsock.core.fuzz.Fuzz;
import io.extsock.core.fuzz.Mutator.Field;
import io.extsock.core.fuzz.Mutator;
import io.extsock.core.mpa.FpduDeframer;
import io.extsock.core.mpa.FpduFramer;
import io.extsock.core.mpa.GatherWrite;
import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the DDP and RDMAP headers of received segments (RFC 5041 section 4, RFC 5040 sections
 * 4 and 7): mutants of every message kind our encoders make (RDMA Write, Read Request, Read
 * Response, the four Sends, Terminates in RFC and in Linux siw's bit order, with and without
 * the copied headers), with opcodes, versions, queue numbers, MSNs, MOs, reserved bits and
 * lengths set to boundary values. Each mutant is decoded alone ({@link RdmapSegmentHeader}),
 * its Terminate part alone ({@link TerminateHeader#decode}), and framed into FPDUs and read by
 * a {@link SegmentReader} whose sink runs DDP's receive bookkeeping (MSN, MO, STag and bounds)
 * and places payloads, directly from the "socket" at random. Only a {@link
 * ProtocolViolationException} naming its Terminate may end an input.
 */
@Tag("stress")
@Timeout(value = 30, unit = TimeUnit.MINUTES)  // per test: a hang fails; the long runs' largest surface takes minutes
class SegmentHeaderFuzzTest {

    private static final Field[] FIELDS = {
        new Field(0, 1), new Field(1, 1), new Field(2, 4), new Field(6, 4), new Field(10, 4), new Field(14, 4),
        new Field(6, 8), new Field(18, 4), new Field(18, 1), new Field(19, 1), new Field(20, 1), new Field(22, 2),
        new Field(24, 1), new Field(25, 1), new Field(26, 4), new Field(30, 4), new Field(34, 4), new Field(38, 4),
        new Field(42, 4), new Field(18 + 8, 4), new Field(0, 2),
    };

    @Test
    void decodedAlone() {
        RdmapSegmentHeader header = new RdmapSegmentHeader();
        Fuzz.Stats stats = Fuzz.run("DDP/RDMAP headers, decoded alone", Fuzz.inputs(30_000), SegmentHeaderFuzzTest::mutant,
                (input, random) -> {
                    header.decode(ByteBuffer.wrap(input));
                    assertNotNull(header.opcode());
                    assertTrue(header.ulpPayloadOffset() + header.ulpPayloadLength() <= input.length);
                    assertNotNull(header.toString());
                });
        assertTrue(stats.accepted > 0 && stats.rejected > 0, stats.toString());
    }

    @Test
    void terminateHeadersInEitherBitOrder() {
        TerminateHeader terminate = new TerminateHeader();
        Fuzz.Stats stats = Fuzz.run("Terminate header", Fuzz.inputs(10_000), random -> {
            byte[] whole = terminateSegment(random);
            byte[] body = java.util.Arrays.copyOfRange(whole, DdpConstants.UNTAGGED_HEADER_LENGTH, whole.length);
            return Mutator.mutate(random, body, new Field[] {new Field(0, 1), new Field(1, 1), new Field(2, 1),
                new Field(3, 1), new Field(4, 2), new Field(6, 1)}, null);
        }, (input, random) -> {
            int offset = random.nextInt(0, 3);
            ByteBuffer buffer = ByteBuffer.allocate(input.length + offset + random.nextInt(0, 3));
            buffer.position(offset);
            buffer.put(input);
            terminate.decode(buffer, offset, input.length);
            assertNotNull(terminate.toString());
        });
        assertTrue(stats.accepted > 0 && stats.rejected > 0, stats.toString());
    }

    @Test
    void readFromTheStream() {
        Fuzz.Stats stats = Fuzz.run("DDP/RDMAP segments through SegmentReader", Fuzz.inputs(20_000),
                SegmentHeaderFuzzTest::mutantStream, SegmentHeaderFuzzTest::readStream);
        assertTrue(stats.accepted > 0 && stats.rejected > 0, stats.toString());
    }

    // ---- generation -----------------------------------------------------------------------

    private static byte[] mutant(SplittableRandom random) {
        byte[] mutant = Mutator.mutate(random, validSegment(random), FIELDS, validSegment(random));
        return mutant.length > DdpConstants.MAX_SEGMENT_LENGTH
                ? java.util.Arrays.copyOf(mutant, DdpConstants.MAX_SEGMENT_LENGTH) : mutant;
    }

    /** One to four segments (mutants), each behind its 4-octet length, then a CRC and markers flag octet. */
    private static byte[] mutantStream(SplittableRandom random) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(random.nextInt(4));
        int count = random.nextInt(1, 5);
        for (int i = 0; i < count; i++) {
            byte[] segment = random.nextBoolean() ? validSegment(random) : mutant(random);
            out.write(segment.length >>> 8);
            out.write(segment.length);
            out.writeBytes(segment);
        }
        return out.toByteArray();
    }

    /** A segment of any kind, as our encoders write it. */
    static byte[] validSegment(SplittableRandom random) {
        int payload = switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> random.nextInt(1, 2000);
            default -> random.nextInt(1, 64);
        };
        ByteBuffer segment = ByteBuffer.allocate(DdpConstants.UNTAGGED_HEADER_LENGTH + 80 + payload);
        boolean last = random.nextBoolean();
        // Mostly what a stream's first message carries (MSN 1, a usable STag), so that the
        // bookkeeping lets inputs through to placement; now and then anything.
        int msn = random.nextInt(4) == 0 ? random.nextInt() : 1;
        int stag = random.nextInt(4) == 0 ? random.nextInt(4) : 0;
        switch (random.nextInt(7)) {
            case 0 -> SegmentHeaders.putRdmaWrite(segment, last, stag, random.nextLong(0, 4096));
            case 1 -> {
                RdmapHeaderEncoder.putRdmaReadRequest(segment, msn, new ReadRequestHeader().set(random.nextInt(),
                        random.nextLong(), random.nextLong(0, 0x1_0000_0000L), stag,
                        random.nextLong(0, 4096)));
                return finish(segment, 0, random);
            }
            case 2 -> SegmentHeaders.putRdmaReadResponse(segment, last, stag,
                    random.nextLong(0, 4096));
            case 3 -> {
                return terminateSegment(random);
            }
            default -> {
                RdmapOpcode send = RdmapOpcode.values()[RdmapOpcode.SEND.ordinal() + random.nextInt(4)];
                SegmentHeaders.putSend(segment, send, send.invalidatesStag() ? random.nextInt() : 0, last, msn,
                        random.nextInt(4) == 0 ? random.nextInt(0, 100_000) : 0);
            }
        }
        return finish(segment, payload, random);
    }

    private static byte[] finish(ByteBuffer segment, int payload, SplittableRandom random) {
        byte[] octets = new byte[segment.position() + payload];
        segment.flip().get(octets, 0, segment.remaining());
        for (int i = octets.length - payload; i < octets.length; i++) {
            octets[i] = (byte) random.nextInt(256);
        }
        return octets;
    }

    /** A whole Terminate segment: any cause, any copies, RFC order or siw's little-endian bit-fields. */
    static byte[] terminateSegment(SplittableRandom random) {
        TerminateCause[] causes = TerminateCause.values();
        TerminateHeader terminate = new TerminateHeader().reset(causes[random.nextInt(causes.length)]);
        if (random.nextBoolean()) {
            byte[] failed = validSegmentNotTerminate(random);
            terminate.includeTerminatedSegment(ByteBuffer.wrap(failed), 0, failed.length);
        }
        if (random.nextBoolean()) {
            terminate.includeTerminatedReadRequest(new ReadRequestHeader().set(random.nextInt(), random.nextLong(),
                    random.nextLong(0, 0x1_0000_0000L), random.nextInt(), random.nextLong()));
        }
        ByteBuffer segment = ByteBuffer.allocate(DdpConstants.UNTAGGED_HEADER_LENGTH + terminate.encodedLength());
        RdmapHeaderEncoder.putTerminate(segment, random.nextInt(1, 3), terminate);
        byte[] octets = segment.array();
        if (random.nextBoolean()) {
            toSiwBitOrder(octets, DdpConstants.UNTAGGED_HEADER_LENGTH);
        }
        return octets;
    }

    private static byte[] validSegmentNotTerminate(SplittableRandom random) {
        while (true) {
            byte[] segment = validSegment(random);
            if ((segment[1] & RdmapConstants.OPCODE_BITS) != RdmapOpcode.TERMINATE.wireValue()) {
                return segment;
            }
        }
    }

    /**
     * Rewrites an RFC 5040 control word as Linux siw sends it from x86: layer in the low nibble
     * of octet 0, EType in the high one, M, D, R in the three lowest bits of octet 2.
     */
    static void toSiwBitOrder(byte[] octets, int at) {
        int layer = octets[at] >>> 4 & 0xF;
        int type = octets[at] & 0xF;
        int flags = octets[at + 2] & 0xFF;
        octets[at] = (byte) (type << 4 | layer);
        octets[at + 2] = (byte) (((flags & 0x80) != 0 ? 0x01 : 0) | ((flags & 0x40) != 0 ? 0x02 : 0)
                | ((flags & 0x20) != 0 ? 0x04 : 0));
    }

    // ---- the stream target ----------------------------------------------------------------

    /** Reused: a GatherWrite's direct arena is too costly to allocate per input. */
    private static final GatherWrite GATHER = new GatherWrite(300, 8192);
    private static final ByteBuffer DIRECT_PLACEMENT = ByteBuffer.allocateDirect(0x10000);
    private static final ByteBuffer HEAP_PLACEMENT = ByteBuffer.allocate(0x10000);

    private static void readStream(byte[] input, SplittableRandom random) throws Exception {
        if (input.length < 1) {
            return;
        }
        boolean crc = (input[0] & 1) != 0;
        boolean markers = (input[0] & 2) != 0;
        FpduFramer framer = new FpduFramer(crc, markers);
        GatherWrite out = GATHER;
        out.reset();
        ByteBuffer noHeader = ByteBuffer.allocate(0);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (int at = 1; at + 2 <= input.length; ) {
            int length = Math.min((input[at] & 0xFF) << 8 | input[at + 1] & 0xFF, input.length - at - 2);
            ByteBuffer ulpdu = ByteBuffer.wrap(input, at + 2, length);
            if (!framer.frame(noHeader, ulpdu, out)) {
                wire.writeBytes(drain(out));
                framer.frame(noHeader, ulpdu, out);
            }
            at += 2 + length;
        }
        wire.writeBytes(drain(out));
        byte[] stream = wire.toByteArray();

        long[] capacities = {UntaggedBufferLookup.NO_BUFFER, 0, 1, 64, 2048, 0xFFFF_FFFFL};
        long capacity = capacities[random.nextInt(capacities.length)];
        long usableLength = random.nextInt(3) == 0 ? Long.MAX_VALUE / 2 : random.nextLong(0, 8192);
        DdpReceiveBookkeeping bookkeeping = new DdpReceiveBookkeeping((queue, msn) -> capacity,
                (stag, answer) -> {
                    switch (stag & 3) {
                        case 0 -> answer.usable(0, usableLength);
                        case 1 -> answer.noSuchStag();
                        case 2 -> answer.notAssociatedWithStream();
                        default -> answer.placementNotAllowed();
                    }
                });
        ByteBuffer placement = random.nextBoolean() ? DIRECT_PLACEMENT : HEAP_PLACEMENT;
        int[] segments = new int[1];
        SegmentReader[] holder = new SegmentReader[1];
        SegmentSink sink = new SegmentSink() {
            @Override
            public ByteBuffer segmentStarted(RdmapSegmentHeader header) throws ProtocolViolationException {
                bookkeeping.accept(header.ddp());
                assertTrue(header.ulpPayloadOffset() + header.ulpPayloadLength() == header.ddp().segmentLength());
                assertEquals(header.ddp().segmentLength(), holder[0].currentSegmentLength());
                assertTrue(holder[0].currentHeaderOctets().remaining() <= 128);
                int length = header.ulpPayloadLength();
                return length == 0 || random.nextInt(4) == 0 ? null : placement.clear().limit(length).slice();
            }

            @Override
            public void segmentComplete(RdmapSegmentHeader header) {
                segments[0]++;
            }
        };
        SegmentReader reader = new SegmentReader(new FpduDeframer(crc, markers), sink);
        holder[0] = reader;
        boolean octetAtATime = random.nextInt(8) == 0;
        int at = 0;
        while (at < stream.length) {
            int direct = reader.directCapacity();
            if (direct > 0 && random.nextBoolean()) { // a socket read straight into place
                int count = Math.min(random.nextInt(1, direct + 1), stream.length - at);
                reader.directTarget().put(stream, at, count);
                reader.placedDirectly(count);
                at += count;
                continue;
            }
            int size = octetAtATime ? 1 : random.nextInt(1, stream.length - at + 1);
            ByteBuffer chunk = ByteBuffer.wrap(stream, at, size);
            reader.read(chunk);
            assertEquals(0, chunk.remaining(), "the reader left input unread");
            at += size;
        }
    }

    private static byte[] drain(GatherWrite out) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ByteBuffer[] buffers = out.buffers();
        for (int i = 0; i < out.count(); i++) {
            byte[] chunk = new byte[buffers[i].remaining()];
            buffers[i].get(chunk);
            bytes.writeBytes(chunk);
        }
        out.reset();
        return bytes.toByteArray();
    }
}
