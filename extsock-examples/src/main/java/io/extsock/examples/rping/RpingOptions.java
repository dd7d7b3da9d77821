package io.extsock.examples.rping;

import java.io.PrintWriter;

/** What one rping run was asked to do, as its C original's control block holds it. */
record RpingOptions(int size, int count, boolean verbose, boolean validate, boolean debug, PrintWriter out) {

    /** rping's {@code DEBUG_LOG}: a line on standard output with {@code -d}. */
    void debug(String format, Object... args) {
        if (debug) {
            synchronized (out) {
                out.printf(format + "%n", args);
                out.flush();
            }
        }
    }

    /** A line on standard output (ping data with {@code -v}). */
    void print(String line) {
        synchronized (out) {
            out.println(line);
            out.flush();
        }
    }
}
