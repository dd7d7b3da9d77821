package io.extsock.core.mpa;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** deframe(frame(x)) == x for random ULPDUs, configurations and splits of the stream. */
class FpduRoundTripTest {

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    @DisplayName("RFC 5044 sections 4 and 4.3: random ULPDUs, markers and CRC on and off, random splits")
    void randomStreams(long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < Bytes.iterations(150); round++) {
            boolean crc = random.nextBoolean();
            boolean markers = random.nextBoolean();
            long offset = 4L * random.nextInt(0, 400);
            int maxUlpdu = switch (random.nextInt(4)) {
                case 0 -> random.nextInt(0, 64);
                case 1 -> FpduFramer.maxUlpduLength(random.nextInt(16, 9000), markers);
                case 2 -> FpduFramer.maxUlpduLength(MpaConstants.DEFAULT_MAX_FPDU_SIZE, markers);
                default -> FpduFramer.maxUlpduLength(0x10000, markers);
            };
            List<FpduStreams.Ulpdu> ulpdus = new ArrayList<>();
            for (int i = random.nextInt(1, 7); i > 0; i--) {
                ulpdus.add(FpduStreams.randomUlpdu(random, random.nextInt(0, maxUlpdu + 1)));
            }
            FpduFramer framer = new FpduFramer(crc, markers, offset);
            // Each marker can cost two slots; a 64 KiB FPDU meets 129 markers.
            GatherWrite out = new GatherWrite(random.nextInt(16, 64) + (markers ? 270 : 0), random.nextInt(1100, 2048));
            byte[] wire = FpduStreams.frame(framer, ulpdus, out);
            assertEquals(offset + wire.length, framer.streamOffset());

            boolean octetAtATime = wire.length < 5000 && random.nextInt(4) == 0;
            FpduDeframer deframer = new FpduDeframer(crc, markers, offset);
            List<byte[]> received = FpduStreams.deframe(deframer, wire, random, octetAtATime);
            String context = "round " + round + " crc " + crc + " markers " + markers + " offset " + offset;
            assertEquals(ulpdus.size(), received.size(), context);
            for (int i = 0; i < ulpdus.size(); i++) {
                assertArrayEquals(ulpdus.get(i).octets(), received.get(i), context + " ULPDU " + i);
            }
            assertEquals(framer.streamOffset(), deframer.streamOffset(), context);
        }
    }
}
