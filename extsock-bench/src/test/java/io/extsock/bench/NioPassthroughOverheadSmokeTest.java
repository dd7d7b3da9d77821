package io.extsock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The NioPassthroughOverhead harness end to end with tiny rounds, every round checking every
 * byte it carries (a wrong byte, a lost or doubled write, a selection that finds the wrong key
 * or returns early throws; a wait that never ends hangs here, under the timeout), and every
 * measurement yielding a value per round for the JDK's channels and extsock's. Not a
 * performance test.
 */
@Timeout(60)
class NioPassthroughOverheadSmokeTest {

    @Test
    void everyMeasurementCarriesItsBytesAndYieldsEveryRound() throws Exception {
        RunLength tiny = new RunLength(1, 2, 200);
        List<NioPassthroughOverhead.Row> rows =
                NioPassthroughOverhead.measure(tiny, NioPassthroughOverhead.DEFAULT_IDLE_CONNECTIONS, true);

        assertEquals(7, rows.size(), "selector loop p50, p99, bandwidth; blocking p50, p99; select, selectNow");
        for (NioPassthroughOverhead.Row row : rows) {
            EveryRound.assertMeasured(row.result(), tiny.rounds());
        }
    }
}
