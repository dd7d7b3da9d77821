package io.extsock.core.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether the machine has a CPU to spare now: fewer threads ready to run than CPUs, as Linux
 * counts them (the fourth field of {@code /proc/loadavg}, "running/total", counts the threads on
 * a CPU or waiting for one, the asking thread included). A thread that would spin asks first: a
 * spin pays only where it keeps an otherwise idle CPU busy, and where threads queue for the CPUs
 * it takes the turn of one with work (a stream echo's three busy threads on two CPUs lost a
 * quarter of their throughput to spinning readers).
 *
 * <p>Read at most once a {@link #SAMPLE_NANOS} for the whole JVM (one positional read of an open
 * file), by whichever thread asks first after that; the others use the last count. Where the file
 * cannot be read (not Linux), every answer is yes, and the spin's other bounds apply alone.
 */
final class SpareCpu {

    /** How long one count serves. */
    static final long SAMPLE_NANOS = 1_000_000;

    private static final Path LOADAVG = Path.of("/proc/loadavg");
    private static final SpareCpu MACHINE = new SpareCpu(LOADAVG);

    private final Path source;
    private final AtomicBoolean sampling = new AtomicBoolean();
    private final ByteBuffer text = ByteBuffer.allocateDirect(128);
    private FileChannel file;
    private boolean unreadable;
    private volatile long sampledAt;
    private volatile int running;

    SpareCpu(Path source) {
        this.source = source;
        this.sampledAt = System.nanoTime() - SAMPLE_NANOS;
    }

    /** This machine's count. */
    static SpareCpu machine() {
        return MACHINE;
    }

    /**
     * @param cpus the CPUs the caller may run on
     * @return whether fewer threads than {@code cpus} were ready to run at the last count, the
     *     asking thread not counted (true if the count cannot be read)
     */
    boolean available(int cpus) {
        long now = System.nanoTime();
        if (now - sampledAt >= SAMPLE_NANOS && sampling.compareAndSet(false, true)) {
            try {
                running = count();
                sampledAt = now;
            } finally {
                sampling.set(false);
            }
        }
        int others = running - 1;  // the count includes the thread that read it
        return others < cpus;
    }

    /** Threads ready to run now, or 0 if that cannot be read. */
    private int count() {
        if (unreadable) {
            return 0;
        }
        try {
            if (file == null) {
                file = FileChannel.open(source, StandardOpenOption.READ);
            }
            text.clear();
            file.read(text, 0);
            text.flip();
            return runningField(text);
        } catch (IOException | RuntimeException e) {
            unreadable = true;
            return 0;
        }
    }

    /**
     * The running count of a {@code /proc/loadavg} line: "0.26 1.19 1.63 2/345 12345".
     *
     * @throws IllegalArgumentException if the line has no such field
     */
    static int runningField(ByteBuffer line) {
        int spaces = 0;
        int value = -1;
        for (int i = line.position(); i < line.limit(); i++) {
            byte b = line.get(i);
            if (b == ' ') {
                spaces++;
            } else if (spaces == 3) {
                if (b == '/') {
                    if (value < 0) {
                        break;
                    }
                    return value;
                }
                if (b < '0' || b > '9') {
                    break;
                }
                value = (value < 0 ? 0 : value * 10) + (b - '0');
            }
        }
        throw new IllegalArgumentException("no running/total field in /proc/loadavg");
    }
}
