package io.extsock.examples.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.examples.cli.Cli;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code extsock demo}: every step runs, every byte is checked, and the table says so. */
@Timeout(120)
class DemoIT {

    /** A ratio with its 95% interval, as perf compare prints it. */
    private static final String RATIO = "\\d+\\.\\d\\d \\[\\d+\\.\\d\\d, \\d+\\.\\d\\d\\]";

    private static final Pattern VERIFIED_ROW = Pattern.compile(".*  8\\.0 MiB  +[\\d.]+ s  +\\d+ MB/s  yes");

    @Test
    void everyStepVerifies() throws Exception {
        Cli demo = Cli.run("demo", "--size", "8M");
        assertEquals(0, demo.waitFor(), demo.transcript());
        assertEveryStepVerified(demo);
        assertTrue(demo.out().contains("stream echoes: " + DemoCommand.DEFAULT_WARM_UP + " unmeasured runs of each"
                + " (the JIT's warm-up), then " + DemoCommand.DEFAULT_RUNS + " measured in alternating order"),
                demo.transcript());
        assertTrue(Pattern.compile("stream echo's throughput against java.net.Socket's \\(the median of the "
                + DemoCommand.DEFAULT_RUNS + " runs' ratios, with its 95% interval\\): passthrough " + RATIO
                + ", IWARP_MODE " + RATIO).matcher(demo.out()).find(), demo.transcript());
    }

    /**
     * {@code --warm-up 0 --runs 1}: the echoes measured on their first connections, and the header
     * says so; one run each gives ratios but no interval.
     */
    @Test
    void aColdStartIsTwoOptionsAway() throws Exception {
        Cli demo = Cli.run("demo", "--size", "8M", "--warm-up", "0", "--runs", "1");
        assertEquals(0, demo.waitFor(), demo.transcript());
        assertEveryStepVerified(demo);
        assertTrue(demo.out().contains("each stream echo measured cold, on its first connection"), demo.transcript());
        assertTrue(Pattern.compile("\\(one run each\\): passthrough \\d+\\.\\d\\d \\[n<6\\],"
                + " IWARP_MODE \\d+\\.\\d\\d \\[n<6\\]").matcher(demo.out()).find(), demo.transcript());
    }

    private static void assertEveryStepVerified(Cli demo) {
        String out = demo.out();
        for (String step : List.of("stream echo, java.net.Socket", "stream echo, ExtendedSocket (passthrough)",
                "stream echo, ExtendedSocket (IWARP_MODE)", "RDMA Write of a registered buffer",
                "RDMA Read of a registered buffer", "file transfer by stream", "file transfer by write",
                "file transfer by read")) {
            String row = out.lines().filter(line -> line.startsWith(step)).findFirst()
                    .orElseThrow(() -> new AssertionError("no row for " + step + "\n" + demo.transcript()));
            assertTrue(VERIFIED_ROW.matcher(row).matches(), row);
        }
        assertTrue(out.strip().endsWith(String.join("\n", DemoCommand.EXPLANATION) + "\n\nall verified"),
                "three sentences under the table say what it shows\n" + demo.transcript());
        assertEquals("", demo.err(), demo.transcript());
    }
}
