package io.extsock.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ReadableDurationTest {

    @Test
    void microsecondsBelowAMillisecond() {
        assertEquals("0 us", ReadableDuration.of(999));
        assertEquals("850 us", ReadableDuration.of(850_400));
    }

    @Test
    void millisecondsWithOneDecimalBelowASecond() {
        assertEquals("1.0 ms", ReadableDuration.of(1_000_000));
        assertEquals("346.8 ms", ReadableDuration.of(346_771_000));
    }

    @Test
    void secondsWithTwoDecimals() {
        assertEquals("2.05 s", ReadableDuration.of(2_049_000_000L));
    }
}
