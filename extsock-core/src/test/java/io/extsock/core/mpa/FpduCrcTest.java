package io.extsock.core.mpa;

import static io.extsock.core.mpa.Bytes.ascii;
import static io.extsock.core.mpa.Bytes.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class FpduCrcTest {

    @Test
    @DisplayName("RFC 5044 section 4 / RFC 3720 B.4: crc32c(\"123456789\") = 0xE3069283, on the wire 83 92 06 e3")
    void checkValue() {
        FpduCrc crc = new FpduCrc();
        crc.update(ByteBuffer.wrap(ascii("123456789")), 0, 9);
        assertEquals(0xE3069283, crc.value());
        assertArrayEquals(hex("83 92 06 e3"), Bytes.crcOnWire(ascii("123456789")));
        assertEquals(0xE3069283, FpduCrc.fromWireOctets(0x83, 0x92, 0x06, 0xe3));
    }

    @Test
    @DisplayName("RFC 3720 B.4: 32 zero octets give 0x8A9136AA")
    void zeros() {
        FpduCrc crc = new FpduCrc();
        for (int i = 0; i < 32; i++) {
            crc.update(0);
        }
        assertEquals(0x8A9136AA, crc.value());
    }

    @Test
    void everyKindOfBufferGivesTheSameValueAndKeepsItsPosition() {
        byte[] data = new byte[1000];
        new SplittableRandom(7).nextBytes(data);
        int expected = value(ByteBuffer.wrap(data), 100, 700);
        ByteBuffer direct = ByteBuffer.allocateDirect(1000).put(data).position(13);
        ByteBuffer readOnlyHeap = ByteBuffer.wrap(data).asReadOnlyBuffer().position(17);
        ByteBuffer offsetHeap = ByteBuffer.wrap(new byte[1100], 50, 1000).slice().put(data).position(3);
        for (ByteBuffer buffer : new ByteBuffer[] {direct, readOnlyHeap, offsetHeap}) {
            int position = buffer.position();
            int limit = buffer.limit();
            assertEquals(expected, value(buffer, 100, 700), buffer.toString());
            assertEquals(position, buffer.position());
            assertEquals(limit, buffer.limit());
        }
    }

    private static int value(ByteBuffer buffer, int offset, int length) {
        FpduCrc crc = new FpduCrc();
        crc.update(buffer, offset, length);
        return crc.value();
    }
}
