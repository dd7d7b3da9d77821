package io.extsock.examples.file;

import io.extsock.examples.cli.Units;
import java.io.PrintWriter;
import java.util.function.LongSupplier;

/**
 * A one-line progress bar with rate and ETA, redrawn in place on a terminal. Elsewhere (a pipe,
 * a log file) it prints nothing: the final summary line is what a log wants.
 */
public final class Progress {

    /** Whether to draw: on a terminal only, always, or never. */
    public enum Mode { AUTO, ALWAYS, NEVER }

    private static final long REDRAW_NANOS = 200_000_000L;
    /** No ETA before this much of the transfer: the first moments' rate says little about the rest. */
    private static final long ETA_AFTER_NANOS = 1_000_000_000L;
    private static final int BAR_WIDTH = 30;

    private final PrintWriter out;
    private final String label;
    private final long total;
    private final boolean enabled;
    private final LongSupplier clock;
    private final long start;
    private long lastDraw;
    private boolean drawn;
    private String line = "";

    public Progress(PrintWriter out, String label, long total, Mode mode) {
        this(out, label, total, mode, System::nanoTime);
    }

    Progress(PrintWriter out, String label, long total, Mode mode, LongSupplier clock) {
        this.out = out;
        this.label = label;
        this.total = total;
        this.enabled = mode == Mode.ALWAYS || mode == Mode.AUTO && onTerminal();
        this.clock = clock;
        this.start = clock.getAsLong();
        this.lastDraw = start - REDRAW_NANOS;
    }

    /**
     * Whether we talk to a terminal. Up to JDK 21 a Console exists only then; from JDK 22 one may
     * exist without a terminal, and {@code Console.isTerminal()} (JDK 22) tells.
     */
    public static boolean onTerminal() {
        java.io.Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
        } catch (NoSuchMethodException beforeJdk22) {
            return true;
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }

    /** Reports {@code done} bytes so far; redraws at most five times a second. */
    public synchronized void update(long done) {
        long now = clock.getAsLong();
        if (!enabled || now - lastDraw < REDRAW_NANOS && done < total) {
            return;
        }
        lastDraw = now;
        double fraction = total == 0 ? 1 : Math.min(1, (double) done / total);
        int filled = (int) Math.round(fraction * BAR_WIDTH);
        long elapsed = now - start;
        double rate = elapsed > 0 ? done / (elapsed / 1e9) : 0;
        String eta = rate > 0 && done < total && elapsed >= ETA_AFTER_NANOS
                ? clock((long) ((total - done) / rate)) : "--:--";
        line = label + " [" + "#".repeat(filled) + " ".repeat(BAR_WIDTH - filled) + "] "
                + Units.format("%3.0f%%", fraction * 100) + "  " + Units.bytes(done) + " / " + Units.bytes(total)
                + "  " + Units.format("%.0f MB/s", rate / 1e6);
        draw(line + "  ETA " + eta + "   ");
    }

    /** Says that the bytes are all in and their SHA-256 is being checked, which takes a while on a large file. */
    public synchronized void verifying() {
        if (enabled) {
            draw(line + "  verifying SHA-256 ...");
        }
    }

    private void draw(String text) {
        drawn = true;
        out.print("\r" + text);
        out.flush();
    }

    /** Ends the line the bar was drawn on, if any. */
    public synchronized void finish() {
        if (drawn) {
            out.println();
            out.flush();
        }
    }

    private static String clock(long seconds) {
        return seconds >= 3600 ? Units.format("%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
                : Units.format("%02d:%02d", seconds / 60, seconds % 60);
    }
}
