package io.extsock.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        MinimalFraming.Reader reader = new MinimalFraming.Reader(ByteBuffer.allocateDirect(size + 64),
                ByteBuffer.allocateDirect(size));
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
    void aFlippedOctetFailsTheCrc() throws IOException {
        byte[] fpdu = bytesOf(new MinimalFraming.Writer().frame(ByteBuffer.allocateDirect(100)));
        // From the first octet the CRC covers after the length field (a damaged length is
        // another FPDU's length: unfinished, or failing its CRC elsewhere).
        for (int octet = MinimalFraming.LENGTH_FIELD; octet < fpdu.length; octet += 7) {
            byte[] damaged = fpdu.clone();
            damaged[octet] ^= 0x10;
            MinimalFraming.Reader reader = new MinimalFraming.Reader(ByteBuffer.allocateDirect(1024),
                    ByteBuffer.allocateDirect(1024));
            reader.room().put(damaged);
            IOException e = assertThrows(IOException.class, reader::consume, "octet " + octet);
            assertTrue(e.getMessage().contains("CRC"), e.getMessage());
        }
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
