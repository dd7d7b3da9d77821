package io.extsock.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.mpa.FpduDeframer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The framing floor does the work it claims: every FPDU the writer frames is 4-aligned, the
 * reader places each payload intact however reads cut the stream, and a flipped octet fails
 * the CRC.
 */
class MinimalFramingTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 64, 4096, MinimalFraming.MAX_PAYLOAD})
    void readerPlacesEveryPayloadWhateverTheCuts(int size) throws IOException {
        MinimalFraming.Writer writer = new MinimalFraming.Writer();
        Random random = new Random(size);
        byte[][] payloads = new byte[3][size];
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (byte[] payload : payloads) {
            random.nextBytes(payload);
            byte[] fpdu = bytesOf(writer.frame(ByteBuffer.allocateDirect(size).put(payload)));
            assertEquals(MinimalFraming.fpduLength(size), fpdu.length);
            assertEquals(0, fpdu.length % 4, "an FPDU ends on a multiple of 4");
            wire.write(fpdu);
        }
        // Staging of exactly one FPDU, as the floor's is of the longest.
        MinimalFraming.Reader reader = new MinimalFraming.Reader(
                ByteBuffer.allocateDirect(MinimalFraming.fpduLength(size)), ByteBuffer.allocateDirect(size));
        byte[] stream = wire.toByteArray();
        int placed = 0;
        // Cuts no longer than an FPDU: one read completes at most one, whose payload is then checked.
        for (int at = 0; at < stream.length; ) {
            int cut = Math.min(Math.min(stream.length - at, reader.room().remaining()),
                    1 + random.nextInt(MinimalFraming.fpduLength(size)));
            reader.room().put(stream, at, cut);
            at += cut;
            reader.consume();
            if (reader.payloadOctets() > (long) placed * size) {
                assertEquals((long) (placed + 1) * size, reader.payloadOctets(), "one FPDU completes at a time here");
                byte[] destination = new byte[size];
                reader.destination().get(0, destination);
                assertArrayEquals(payloads[placed], destination, "payload " + placed);
                placed++;
            }
        }
        assertEquals(payloads.length, placed);
        assertEquals(0, reader.room().position(), "nothing left over");
    }

    @Test
    void oneReadOfManyFpdusPlacesThemAll() throws IOException {
        int size = 4096;
        int count = 15;
        MinimalFraming.Writer writer = new MinimalFraming.Writer();
        MinimalFraming.Reader reader = new MinimalFraming.Reader(
                ByteBuffer.allocateDirect(count * MinimalFraming.fpduLength(size)), ByteBuffer.allocateDirect(size));
        byte[] payload = new byte[size];
        for (int i = 0; i < count; i++) {
            new Random(i).nextBytes(payload);
            reader.room().put(bytesOf(writer.frame(ByteBuffer.allocateDirect(size).put(payload))));
        }
        reader.consume();
        assertEquals((long) count * size, reader.payloadOctets());
        byte[] last = new byte[size];
        reader.destination().get(0, last);
        assertArrayEquals(payload, last, "the last payload, placed last");
        assertEquals(0, reader.room().position(), "nothing left over");
    }

    @Test
    void everyFlippedOctetAfterTheLengthFailsTheCrc() throws IOException {
        int size = 101;  // with 3 octets of pad, which the CRC covers too
        byte[] fpdu = bytesOf(new MinimalFraming.Writer().frame(ByteBuffer.allocateDirect(size)));
        assertEquals(3, MinimalFraming.pad(MinimalFraming.UNTAGGED_HEADER + size));
        // From the first octet after the length field (a damaged length is another FPDU's
        // length: unfinished, or its CRC looked for elsewhere).
        for (int octet = MinimalFraming.LENGTH_FIELD; octet < fpdu.length; octet++) {
            byte[] damaged = fpdu.clone();
            damaged[octet] ^= 0x10;
            MinimalFraming.Reader reader = new MinimalFraming.Reader(ByteBuffer.allocateDirect(1024),
                    ByteBuffer.allocateDirect(1024));
            reader.room().put(damaged);
            IOException e = assertThrows(IOException.class, reader::consume, "octet " + octet);
            assertTrue(e.getMessage().contains("CRC"), e.getMessage());
            assertEquals(0, reader.payloadOctets(), "nothing placed from a damaged FPDU");
        }
    }

    /** The engine's own deframer takes the floor's FPDUs: the wire format, CRC octet order included, is RFC 5044's. */
    @ParameterizedTest
    @ValueSource(ints = {1, 101, 4096})
    void theEnginesDeframerAcceptsTheFramesAsSent(int size) throws Exception {
        byte[] payload = new byte[size];
        new Random(size).nextBytes(payload);
        ByteBuffer wire = ByteBuffer.wrap(bytesOf(new MinimalFraming.Writer().frame(
                ByteBuffer.allocateDirect(size).put(payload))));
        FpduDeframer deframer = new FpduDeframer(true, false);
        ByteBuffer ulpdu = ByteBuffer.allocate(MinimalFraming.UNTAGGED_HEADER + size);
        FpduDeframer.Progress progress;
        while ((progress = deframer.advance(wire)) != FpduDeframer.Progress.FPDU_COMPLETE) {
            assertEquals(FpduDeframer.Progress.ULPDU_BYTES, progress, "the whole FPDU is there");
            deframer.copyUlpdu(wire, ulpdu, Integer.MAX_VALUE);
        }
        assertEquals(MinimalFraming.UNTAGGED_HEADER + size, deframer.ulpduLength());
        assertEquals(0, wire.remaining(), "the FPDU ends where its CRC does");
        assertEquals(0x41, ulpdu.get(0) & 0xFF, "DDP control: last segment, untagged, version 1");
        assertEquals(0x43, ulpdu.get(1) & 0xFF, "RDMAP control: version 1, Send");
        assertEquals(1, ulpdu.getInt(10), "MSN of the first message");
        byte[] carried = new byte[size];
        ulpdu.get(MinimalFraming.UNTAGGED_HEADER, carried);
        assertArrayEquals(payload, carried);
    }

    private static byte[] bytesOf(ByteBuffer[] gather) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuffer buffer : gather) {
            ByteBuffer view = buffer.duplicate();
            byte[] bytes = new byte[view.remaining()];
            view.get(bytes);
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }
}
