package io.extsock.core.mpa;

import static io.extsock.core.terminate.TerminateCause.LLP_MPA_CRC;
import static io.extsock.core.terminate.TerminateCause.LLP_MPA_MARKER;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Damaged streams: whatever a peer sends, the deframer waits for more or rejects it with a
 * marker or CRC error; it never throws anything else.
 */
class FpduCorruptionTest {

    private static final Set<TerminateCause> FRAMING_ERRORS = Set.of(LLP_MPA_CRC, LLP_MPA_MARKER);

    @Test
    @DisplayName("RFC 5044 sections 4 and 8: with CRC on, flipped bits are caught or leave us waiting, never delivered")
    void flippedBitsWithCrc() {
        SplittableRandom random = new SplittableRandom(8);
        for (int round = 0; round < Bytes.iterations(300); round++) {
            boolean markers = random.nextBoolean();
            Stream stream = stream(random, true, markers);
            byte[] damaged = stream.wire.clone();
            for (int flips = random.nextInt(1, 4); flips > 0; flips--) {
                int bit = random.nextInt(damaged.length * 8);
                damaged[bit / 8] ^= (byte) (1 << (bit % 8));
            }
            int delivered = outcome(damaged, true, markers, random);
            // A flip in a length field may leave the deframer waiting for octets that never
            // come; the CRC stops anything damaged from being delivered as a whole stream.
            assertTrue(delivered < stream.count || Arrays.equals(damaged, stream.wire), "round " + round);
        }
    }

    @Test
    @DisplayName("RFC 5044 section 4: without CRC, damage is only a marker error or other octets")
    void flippedBitsWithoutCrc() {
        SplittableRandom random = new SplittableRandom(9);
        for (int round = 0; round < Bytes.iterations(300); round++) {
            boolean markers = random.nextBoolean();
            Stream stream = stream(random, false, markers);
            byte[] damaged = stream.wire.clone();
            int bit = random.nextInt(damaged.length * 8);
            damaged[bit / 8] ^= (byte) (1 << (bit % 8));
            outcome(damaged, false, markers, random);
        }
    }

    @Test
    @DisplayName("RFC 5044 section 4: truncated streams leave the deframer waiting")
    void truncation() {
        SplittableRandom random = new SplittableRandom(10);
        for (int round = 0; round < Bytes.iterations(200); round++) {
            boolean crc = random.nextBoolean();
            boolean markers = random.nextBoolean();
            Stream stream = stream(random, crc, markers);
            int cut = random.nextInt(0, stream.wire.length);
            int delivered = outcome(Arrays.copyOf(stream.wire, cut), crc, markers, random);
            assertTrue(delivered < stream.count, "round " + round);
        }
    }

    @Test
    @DisplayName("RFC 5044 section 4: hostile lengths, random octets and inserted junk")
    void hostileInput() {
        SplittableRandom random = new SplittableRandom(11);
        for (int round = 0; round < Bytes.iterations(300); round++) {
            boolean crc = random.nextBoolean();
            boolean markers = random.nextBoolean();
            byte[] damaged;
            switch (round % 3) {
                case 0 -> {
                    damaged = new byte[random.nextInt(1, 3000)];
                    random.nextBytes(damaged);
                }
                case 1 -> {
                    damaged = stream(random, crc, markers).wire;
                    int at = random.nextInt(damaged.length);
                    damaged[at] = (byte) 0xFF;
                    damaged[Math.min(at + 1, damaged.length - 1)] = (byte) 0xFF;
                }
                default -> {
                    byte[] wire = stream(random, crc, markers).wire;
                    int at = random.nextInt(wire.length);
                    byte[] junk = new byte[random.nextInt(1, 40)];
                    random.nextBytes(junk);
                    damaged = Bytes.concat(Arrays.copyOf(wire, at), junk, Arrays.copyOfRange(wire, at, wire.length));
                }
            }
            outcome(damaged, crc, markers, random);
        }
    }

    private record Stream(byte[] wire, int count) {
    }

    private static Stream stream(SplittableRandom random, boolean crc, boolean markers) {
        List<FpduStreams.Ulpdu> ulpdus = new ArrayList<>();
        int count = random.nextInt(1, 5);
        for (int i = 0; i < count; i++) {
            ulpdus.add(FpduStreams.randomUlpdu(random, random.nextInt(0, random.nextBoolean() ? 40 : 1500)));
        }
        GatherWrite out = new GatherWrite(64, 2048);
        return new Stream(FpduStreams.frame(new FpduFramer(crc, markers), ulpdus, out), count);
    }

    /** Deframes; returns the FPDUs delivered, or -1 after a framing error. Anything else fails. */
    private static int outcome(byte[] wire, boolean crc, boolean markers, SplittableRandom random) {
        try {
            return FpduStreams.deframe(new FpduDeframer(crc, markers), wire, random, random.nextInt(8) == 0).size();
        } catch (ProtocolViolationException e) {
            assertTrue(FRAMING_ERRORS.contains(e.terminateCause()), e.toString());
            assertTrue(crc || e.terminateCause() == LLP_MPA_MARKER, "CRC error with CRC off: " + e);
            return -1;
        } catch (RuntimeException | Error e) {
            fail("damaged input must end in NEED_INPUT or a ProtocolViolationException", e);
            return 0;
        }
    }
}
