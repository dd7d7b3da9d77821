package io.extsock.examples.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Busy-spinning threads, one per processor, that keep every core busy while a test runs beside
 * them: the load under which timing races between the extsock JVMs and the emulated siw guest
 * show. Closing stops and joins them all.
 */
public final class CpuHog implements AutoCloseable {

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> spinners = new ArrayList<>();
    /** Written by the spinners so that the JIT cannot prove their loops empty. */
    private volatile long sink;

    private CpuHog(int threads) {
        for (int i = 0; i < threads; i++) {
            Thread spinner = new Thread(this::spin, "cpu-hog-" + i);
            spinner.setDaemon(true);
            spinners.add(spinner);
            spinner.start();
        }
    }

    /** Starts one spinning thread per processor the JVM sees. */
    public static CpuHog onEveryCore() {
        return new CpuHog(Runtime.getRuntime().availableProcessors());
    }

    public int threads() {
        return spinners.size();
    }

    private void spin() {
        long count = 0;
        while (running.get()) {
            count++;
            if ((count & 0xFFFFF) == 0) {
                sink = count;
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        for (Thread spinner : spinners) {
            spinner.join();
        }
    }
}
