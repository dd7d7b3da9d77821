package io.extsock.core.mpa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.fuzz.Fuzz;
import io.extsock.core.fuzz.Mutator;
import io.extsock.core.fuzz.Mutator.Field;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the FPDU deframer (RFC 5044 sections 4 to 6) with markers and CRC each on and off:
 * mutants of streams our framer made (ULPDU lengths, markers, pads and CRCs damaged, streams
 * cut, spliced, extended) fed in random splits or one octet at a time, ULPDU octets taken by
 * copy, by placement or skipped. Only {@code LLP_MPA_CRC} and {@code LLP_MPA_MARKER} may end an
 * input (a wrong ULPDU length shows as one of them), and every call must make progress: consume
 * input, or say it needs more.
 */
@Tag("stress")
@Timeout(value = 30, unit = TimeUnit.MINUTES)  // per test: a hang fails; the long runs' largest surface takes minutes
class FpduDeframerFuzzTest {

    @Test
    void crcAndMarkers() {
        fuzz(true, true);
    }

    @Test
    void crcWithoutMarkers() {
        fuzz(true, false);
    }

    @Test
    void markersWithoutCrc() {
        fuzz(false, true);
    }

    @Test
    void neitherCrcNorMarkers() {
        fuzz(false, false);
    }

    private static void fuzz(boolean crc, boolean markers) {
        String surface = "FPDU deframer, CRC " + (crc ? "on" : "off") + ", markers " + (markers ? "on" : "off");
        Fuzz.Stats stats = Fuzz.run(surface, Fuzz.inputs(6_000), random -> mutant(random, crc, markers),
                (input, random) -> deframe(input, random, crc, markers));
        assertTrue(stats.accepted > 0 && (stats.rejected > 0 || !crc && !markers), stats.toString());
    }

    /** Stream offsets of the first octets our framer's stream starts at, for the deframer to match. */
    private static long startOffset(SplittableRandom random) {
        return random.nextInt(4) == 0 ? 4L * random.nextInt(0, 300) : 0;
    }

    private static byte[] mutant(SplittableRandom random, boolean crc, boolean markers) {
        long offset = startOffset(random);
        List<Field> fields = new ArrayList<>();
        byte[] valid = stream(random, crc, markers, offset, fields);
        byte[] donor = stream(random, crc, markers, offset, new ArrayList<>());
        byte[] mutant = Mutator.mutate(random, valid, fields.toArray(new Field[0]), donor);
        // The start offset travels in the input's first 4 octets, so that a failure's hex reproduces it.
        return Bytes.concat(ByteBuffer.allocate(4).putInt((int) offset).array(), mutant);
    }

    /** A few FPDUs as our framer writes them; the ULPDU_Length fields' offsets go into {@code fields}. */
    private static byte[] stream(SplittableRandom random, boolean crc, boolean markers, long offset,
            List<Field> fields) {
        FpduFramer framer = new FpduFramer(crc, markers, offset);
        GatherWrite out = GATHER;
        out.reset();
        int count = random.nextInt(1, 5);
        List<FpduStreams.Ulpdu> ulpdus = new ArrayList<>();
        int at = 0;
        for (int i = 0; i < count; i++) {
            int length = switch (random.nextInt(6)) {
                case 0 -> 0;
                case 1 -> random.nextInt(1, 4);
                case 2 -> random.nextInt(500, 1500);
                default -> random.nextInt(4, 80);
            };
            ulpdus.add(ulpdu(random, length));
            if (!markers) {
                fields.add(new Field(at, 2));
                at += 2 + length + FpduFramer.padLength(length) + MpaConstants.CRC_FIELD;
            }
        }
        if (markers) {
            fields.add(new Field(0, 2));
            fields.add(new Field(2, 2));
            fields.add(new Field(4, 2));
        }
        return FpduStreams.frame(framer, ulpdus, out);
    }

    /** A ULPDU in heap buffers: a header and up to two payload slices (direct buffers cost too much here). */
    private static FpduStreams.Ulpdu ulpdu(SplittableRandom random, int length) {
        byte[] octets = new byte[length];
        random.nextBytes(octets);
        int headerLength = Math.min(length, random.nextInt(0, 29));
        int split = random.nextInt(headerLength, length + 1);
        ByteBuffer[] payload = {ByteBuffer.wrap(octets, headerLength, split - headerLength).slice(),
            ByteBuffer.wrap(octets, split, length - split).slice()};
        return new FpduStreams.Ulpdu(java.util.Arrays.copyOf(octets, headerLength), payload, octets);
    }

    /** Reused: a GatherWrite's direct arena is too costly to allocate per input. */
    private static final GatherWrite GATHER = new GatherWrite(64, 8192);
    private static final ByteBuffer SCRATCH = ByteBuffer.allocate(0x10000);
    private static final byte[] PLACED = new byte[0x10000];

    private static void deframe(byte[] input, SplittableRandom random, boolean crc, boolean markers)
            throws Exception {
        if (input.length < 4) {
            return;
        }
        long offset = ByteBuffer.wrap(input).getInt() & 0xFFFF_FFFFL;
        if (offset % 4 != 0) {
            return; // a local choice, not peer input: the deframer's constructor refuses it
        }
        FpduDeframer deframer = new FpduDeframer(crc, markers, offset);
        boolean octetAtATime = random.nextInt(4) == 0;
        ByteBuffer scratch = SCRATCH;
        byte[] placed = PLACED;
        int at = 4;
        long ulpdusTaken = 0;
        while (at < input.length) {
            int size = octetAtATime ? 1 : random.nextInt(1, Math.min(input.length - at, 2000) + 1);
            ByteBuffer chunk = ByteBuffer.wrap(input, at, size);
            while (true) {
                int before = chunk.position();
                long streamBefore = deframer.streamOffset();
                FpduDeframer.Progress progress = deframer.advance(chunk);
                assertEquals(chunk.position() - before, deframer.streamOffset() - streamBefore,
                        "octets consumed against the stream offset");
                if (progress == FpduDeframer.Progress.NEED_INPUT) {
                    assertEquals(0, chunk.remaining(), "NEED_INPUT with input left");
                    break;
                }
                if (progress == FpduDeframer.Progress.FPDU_COMPLETE) {
                    assertEquals(0, deframer.ulpduRemaining());
                    continue;
                }
                int contiguous = deframer.contiguousUlpduBytes();
                assertTrue(contiguous > 0 && contiguous <= deframer.ulpduRemaining(),
                        "ULPDU_BYTES with " + contiguous + " contiguous octets");
                if (!chunk.hasRemaining()) {
                    break;
                }
                int want = random.nextInt(1, Math.min(contiguous, chunk.remaining()) + 1);
                int taken = switch (random.nextInt(3)) {
                    case 0 -> deframer.copyUlpdu(chunk, scratch.clear(), want);
                    case 1 -> deframer.skipUlpdu(chunk, want);
                    default -> {
                        chunk.get(placed, 0, want); // read from the socket straight into place
                        deframer.ulpduPlaced(ByteBuffer.wrap(placed), 0, want);
                        yield want;
                    }
                };
                assertEquals(want, taken, "ULPDU octets taken");
                ulpdusTaken += taken;
            }
            at += size;
        }
        assertTrue(deframer.streamOffset() - offset == input.length - 4, "the whole stream consumed");
        assertTrue(ulpdusTaken <= input.length);
    }
}
