package io.extsock.core.engine;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The software iWARP engine's threads: a small fixed set of {@link ProgressThread}s shared by
 * every IWARP_MODE connection of the JVM (no thread per connection). Connections are spread
 * over them round-robin.
 *
 * <p>Size: the system property {@code extsock.engine.threads}, else {@code min(2, cores)}.
 */
final class ProgressEngine {

    private static final ProgressEngine INSTANCE = new ProgressEngine(configuredThreads());

    private final ProgressThread[] threads;
    private final AtomicInteger next = new AtomicInteger();

    private ProgressEngine(int count) {
        threads = new ProgressThread[count];
        for (int i = 0; i < count; i++) {
            threads[i] = new ProgressThread("extsock-iwarp-" + i);
        }
    }

    static ProgressEngine instance() {
        return INSTANCE;
    }

    /** The thread that will serve the next connection. */
    ProgressThread assign() {
        return threads[Math.floorMod(next.getAndIncrement(), threads.length)];
    }

    int size() {
        return threads.length;
    }

    /** The threads, for tests that look at their state. */
    List<ProgressThread> threads() {
        return List.of(threads);
    }

    private static int configuredThreads() {
        int cores = Runtime.getRuntime().availableProcessors();
        String configured = System.getProperty("extsock.engine.threads");
        if (configured != null) {
            try {
                int count = Integer.parseInt(configured.trim());
                if (count >= 1) {
                    return count;
                }
            } catch (NumberFormatException e) {
                // fall through to the default, which is safe
            }
            System.getLogger(ProgressEngine.class.getName()).log(System.Logger.Level.WARNING,
                    "ignoring extsock.engine.threads=" + configured + ": not a positive integer");
        }
        return Math.max(1, Math.min(2, cores));
    }
}
