package io.extsock.examples.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The progress bar on a clock of the test's: no ETA from the first moments, a word while verifying. */
class ProgressTest {

    private static final long MILLIS = 1_000_000L;

    private final StringWriter screen = new StringWriter();
    private long now = 5_000 * MILLIS;

    @Test
    void noEtaInTheFirstSecondThenOneFromTheRate() {
        Progress bar = new Progress(new PrintWriter(screen), "f.bin", 100_000_000, Progress.Mode.ALWAYS, () -> now);
        now += 10 * MILLIS;
        bar.update(100_000);  // 0.1% in 10 ms: an ETA from this would say 00:09 or worse, and mean nothing
        assertTrue(lastDraw().endsWith("ETA --:--   "), lastDraw());
        now += 1_990 * MILLIS;
        bar.update(50_000_000);  // half in 2 s: 2 s to go
        assertTrue(lastDraw().endsWith("ETA 00:02   "), lastDraw());
    }

    @Test
    void saysItIsVerifyingAfterTheLastByte() {
        Progress bar = new Progress(new PrintWriter(screen), "f.bin", 1_000, Progress.Mode.ALWAYS, () -> now);
        now += 2_000 * MILLIS;
        bar.update(1_000);
        assertTrue(lastDraw().contains("100%"), lastDraw());
        bar.verifying();
        assertTrue(lastDraw().startsWith("f.bin [" + "#".repeat(30) + "] 100%"), lastDraw());
        assertTrue(lastDraw().endsWith("verifying SHA-256 ..."), lastDraw());
        bar.finish();
        assertTrue(screen.toString().endsWith(System.lineSeparator()), "the line is ended");
    }

    @Test
    void neverDrawsNothing() {
        Progress bar = new Progress(new PrintWriter(screen), "f.bin", 1_000, Progress.Mode.NEVER, () -> now);
        bar.update(500);
        bar.verifying();
        bar.finish();
        assertEquals("", screen.toString());
    }

    /** What the last redraw put on the line. */
    private String lastDraw() {
        String text = screen.toString();
        return text.substring(text.lastIndexOf('\r') + 1);
    }
}
