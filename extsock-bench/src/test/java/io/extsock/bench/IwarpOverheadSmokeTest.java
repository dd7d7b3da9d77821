package io.extsock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The IwarpOverhead harness end to end with tiny rounds: every measurement runs, checks its
 * data, and yields a positive, finite value per round for both java.net.Socket and
 * IWARP_MODE. Not a performance test.
 */
@Timeout(60)
class IwarpOverheadSmokeTest {

    @Test
    void everyMeasurementYieldsValuesForBothVariants() throws Exception {
        RunLength tiny = new RunLength(1, 2, 512);
        List<IwarpOverhead.Row> rows = IwarpOverhead.measure(tiny);

        int perCrcSetting = 10;  // stream 3, Send/Receive 3, RDMA Write 2, RDMA Read 2
        assertEquals(2 * perCrcSetting, rows.size());
        for (IwarpOverhead.Row row : rows) {
            String what = row.operation().title + " " + row.result().size() + ", CRC " + (row.crc() ? "on" : "off");
            PairedComparison.Result result = row.result();
            assertEquals(tiny.rounds(), result.baseline().length, what);
            assertEquals(tiny.rounds(), result.candidate().length, what);
            for (int round = 0; round < tiny.rounds(); round++) {
                assertPositiveFinite(result.baseline()[round], what + ", java.net.Socket, round " + round);
                assertPositiveFinite(result.candidate()[round], what + ", IWARP_MODE, round " + round);
            }
        }
    }

    private static void assertPositiveFinite(double value, String what) {
        assertTrue(value > 0 && Double.isFinite(value), what + ": " + value);
    }
}
