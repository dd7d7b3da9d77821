package io.extsock.core.ddp;

import static io.extsock.core.ddp.WireHex.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class DdpHeaderEncoderTest {

    @Test
    void untaggedLastSendHeaderIsByteExact_wireMd() {
        ByteBuffer dst = ByteBuffer.allocate(18);
        DdpHeaderEncoder.putUntagged(dst, true, 0x43, 0, 0, 1, 0);
        assertEquals(18, dst.position());
        assertEquals(hex("41 43 00000000 00000000 00000001 00000000"), hex(dst.flip()));
    }

    @Test
    void taggedLastWriteHeaderIsByteExact_wireMd() {
        ByteBuffer dst = ByteBuffer.allocate(14);
        DdpHeaderEncoder.putTagged(dst, true, 0x40, 0x1234abcd, 0x1000);
        assertEquals(hex("c1 40 1234abcd 0000000000001000"), hex(dst.flip()));
    }

    @Test
    void nonLastSegmentsClearL_rfc5041_4_1() {
        ByteBuffer dst = ByteBuffer.allocate(32);
        DdpHeaderEncoder.putTagged(dst, false, 0x42, 1, 2);
        DdpHeaderEncoder.putUntagged(dst, false, 0x43, 0, 0, 1, 2);
        assertEquals(0x81, dst.get(0) & 0xFF);
        assertEquals(0x01, dst.get(14) & 0xFF);
    }

    @Test
    void writesBigEndianIntoALittleEndianBuffer() {
        ByteBuffer dst = ByteBuffer.allocate(18).order(ByteOrder.LITTLE_ENDIAN);
        DdpHeaderEncoder.putUntagged(dst, true, 0x44, 0xcafe0001, 0, 0x01020304, 0x0a0b0c0d);
        assertEquals(hex("41 44 cafe0001 00000000 01020304 0a0b0c0d"), hex(dst.flip()));
    }

    @Test
    void writesAtThePositionAndLeavesOtherOctetsAlone() {
        ByteBuffer dst = ByteBuffer.allocate(20);
        dst.put(0, (byte) 0x77).put(17, (byte) 0x77).position(2);
        DdpHeaderEncoder.putTagged(dst, true, 0x40, 0, 0);
        assertEquals(16, dst.position());
        assertEquals(0x77, dst.get(0));
        assertEquals(0x77, dst.get(17));
    }

    @Test
    void tooSmallABufferFailsBeforeWriting() {
        ByteBuffer dst = ByteBuffer.allocate(17);
        assertThrows(BufferOverflowException.class, () -> DdpHeaderEncoder.putUntagged(dst, true, 0x43, 0, 0, 1, 0));
        assertEquals(0, dst.position());
        assertEquals(0, dst.get(0));
    }

    @Test
    void rejectsValuesThatDoNotFitTheirFields() {
        ByteBuffer dst = ByteBuffer.allocate(18);
        assertThrows(IllegalArgumentException.class, () -> DdpHeaderEncoder.putUntagged(dst, true, 0x143, 0, 0, 1, 0));
        assertThrows(IllegalArgumentException.class,
                () -> DdpHeaderEncoder.putUntagged(dst, true, 0x43, 0, 0, 1, 0x1_0000_0000L));
    }
}
