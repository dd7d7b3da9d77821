package io.extsock.core.mpa;

import static io.extsock.core.mpa.Bytes.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class EnhancedSetupTest {

    @Test
    @DisplayName("RFC 6581 section 7.1: A|B|IRD and C|D|ORD, 14-bit counts")
    void everyBit() {
        EnhancedSetup all = new EnhancedSetup(0x3FFF, 0x3FFF, true, EnumSet.allOf(RtrKind.class));
        assertArrayEquals(hex("ff ff ff ff"), all.toBytes());
        assertEquals(all, EnhancedSetup.parse(ByteBuffer.wrap(hex("ff ff ff ff"))));
        assertEquals(new EnhancedSetup(0, 0, false, Set.of(RtrKind.ZERO_LENGTH_SEND)),
                EnhancedSetup.parse(ByteBuffer.wrap(hex("40 00 00 00"))));
        assertEquals(new EnhancedSetup(0, 0, false, Set.of(RtrKind.ZERO_LENGTH_WRITE)),
                EnhancedSetup.parse(ByteBuffer.wrap(hex("00 00 80 00"))));
        assertEquals(new EnhancedSetup(0, 0, false, Set.of(RtrKind.ZERO_LENGTH_READ)),
                EnhancedSetup.parse(ByteBuffer.wrap(hex("00 00 40 00"))));
        assertEquals(new EnhancedSetup(0, 0, true, Set.of()), EnhancedSetup.parse(ByteBuffer.wrap(hex("80 00 00 00"))));
    }

    @Test
    @DisplayName("RFC 6581 section 7.1: the wire oracle's Request 8010 c010 and Reply 8008 8008")
    void wireOracleWords() {
        assertEquals(new EnhancedSetup(16, 16, true, EnumSet.of(RtrKind.ZERO_LENGTH_WRITE, RtrKind.ZERO_LENGTH_READ)),
                EnhancedSetup.parse(ByteBuffer.wrap(hex("80 10 c0 10"))));
        EnhancedSetup reply = EnhancedSetup.parse(ByteBuffer.wrap(hex("80 08 80 08")));
        assertEquals(new EnhancedSetup(8, 8, true, Set.of(RtrKind.ZERO_LENGTH_WRITE)), reply);
        assertEquals(0x8008, reply.irdWord());
        assertEquals(0x8008, reply.ordWord());
    }

    @Test
    void parsingLeavesThePositionAlone() {
        ByteBuffer buffer = ByteBuffer.wrap(hex("00 00 00 05 00 07"));
        buffer.position(2);
        assertEquals(new EnhancedSetup(5, 7, false, Set.of()), EnhancedSetup.parse(buffer));
        assertEquals(2, buffer.position());
    }

    @Test
    void countsOutside14BitsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new EnhancedSetup(0x4000, 0, false, Set.of()));
        assertThrows(IllegalArgumentException.class, () -> new EnhancedSetup(0, -1, false, Set.of()));
    }
}
