package io.extsock.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whether the machine has a CPU to spare, from the running count of /proc/loadavg. */
class SpareCpuTest {

    @TempDir
    Path dir;

    @Test
    void readsTheRunningCountOfALoadavgLine() {
        assertEquals(2, SpareCpu.runningField(line("0.26 1.19 1.63 2/345 12345\n")));
        assertEquals(117, SpareCpu.runningField(line("12.00 9.50 3.25 117/2048 99\n")));
        assertThrows(IllegalArgumentException.class, () -> SpareCpu.runningField(line("0.26 1.19 1.63\n")));
        assertThrows(IllegalArgumentException.class, () -> SpareCpu.runningField(line("0.26 1.19 1.63 /345 1\n")));
    }

    @Test
    void aCpuIsSpareWhileFewerOthersThanCpusAreReadyToRun() throws Exception {
        assertTrue(sampleOf("0.00 0.00 0.00 2/100 1\n").available(2), "the asker and one other on two CPUs");
        assertFalse(sampleOf("0.00 0.00 0.00 3/100 1\n").available(2), "the asker and two others on two CPUs");
        assertTrue(sampleOf("0.00 0.00 0.00 3/100 1\n").available(4));
        assertFalse(sampleOf("9.00 9.00 9.00 40/900 1\n").available(8));
    }

    @Test
    void aCountIsReadAgainOnceItIsOld() throws Exception {
        Path loadavg = dir.resolve("loadavg");
        Files.writeString(loadavg, "0.00 0.00 0.00 1/100 1\n");
        SpareCpu spare = new SpareCpu(loadavg);
        assertTrue(spare.available(2));
        Files.writeString(loadavg, "0.00 0.00 0.00 5/100 1\n");
        long until = System.nanoTime() + 10 * SpareCpu.SAMPLE_NANOS;
        while (spare.available(2) && System.nanoTime() - until < 0) {
            Thread.onSpinWait();
        }
        assertFalse(spare.available(2), "the new count, read after its time");
    }

    @Test
    void whereNothingCanBeReadEveryAnswerIsYes() {
        SpareCpu nowhere = new SpareCpu(dir.resolve("no-such-file"));
        assertTrue(nowhere.available(1));
        assertTrue(nowhere.available(2));
    }

    private SpareCpu sampleOf(String content) throws Exception {
        Path loadavg = Files.createTempFile(dir, "loadavg", "");
        Files.writeString(loadavg, content);
        return new SpareCpu(loadavg);
    }

    private static ByteBuffer line(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
    }
}
