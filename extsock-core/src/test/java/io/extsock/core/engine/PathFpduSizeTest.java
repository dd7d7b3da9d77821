package io.extsock.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PathFpduSizeTest {

    @Test
    void oneSegmentOfTheMtuLessHeadersAndTimestamps() {
        assertEquals(1448, PathFpduSize.forMtu(1500, false), "Ethernet, IPv4: what siw and RNICs use");
        assertEquals(1428, PathFpduSize.forMtu(1500, true), "Ethernet, IPv6");
        assertEquals(8948, PathFpduSize.forMtu(9000, false), "jumbo frames");
        assertEquals(65_484, PathFpduSize.forMtu(65_536, false), "loopback");
    }

    @Test
    void withinMpasBoundsAndAMultipleOfFour() {
        assertEquals(65_544, PathFpduSize.forMtu(1 << 20, false), "no FPDU is longer than 2 + 65535 + pad + 4");
        assertEquals(64, PathFpduSize.forMtu(68, false), "the smallest FPDU worth sending");
        assertEquals(0, PathFpduSize.forMtu(1503, false) % 4);
    }
}
