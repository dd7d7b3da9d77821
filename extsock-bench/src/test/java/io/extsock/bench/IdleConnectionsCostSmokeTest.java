package io.extsock.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The IdleConnectionsCost harness end to end, small: the connections open, their readers block,
 * the measurement yields a share of a CPU the JVM can take, and closing ends the reads. Not a
 * performance test.
 */
@Timeout(60)
class IdleConnectionsCostSmokeTest {

    @Test
    void measuresTheCpuOfIdleConnections() throws Exception {
        double percent = IdleConnectionsCost.measure(4, 200);
        assertTrue(percent >= 0 && percent <= 100.0 * Runtime.getRuntime().availableProcessors(), percent + "%");
    }
}
