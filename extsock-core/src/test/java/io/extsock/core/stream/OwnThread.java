package io.extsock.core.stream;

import java.util.concurrent.CompletableFuture;

/**
 * Stream work that may block for good, on a daemon thread of its own: a blocked stream call
 * ignores interrupts, as a Socket's does, so a test thread stuck in one would hang the run; here
 * the test fails at its future's timeout, and the stuck thread does not keep the JVM alive.
 */
final class OwnThread {

    /** A step that may throw, as stream calls do. */
    interface Work {
        void run() throws Exception;
    }

    private OwnThread() {
    }

    static CompletableFuture<Void> run(String name, Work work) {
        return CompletableFuture.runAsync(() -> {
            try {
                work.run();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            thread.start();
        });
    }
}
