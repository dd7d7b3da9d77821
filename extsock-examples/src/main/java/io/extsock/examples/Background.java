package io.extsock.examples;

import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;

/**
 * Work on a thread of its own. Blocking work (accepting, serving a connection) must not go to
 * the common pool: on two cores it has a single thread, and on recent JDKs CompletableFuture's
 * async methods use it, so one blocked task would stall every other.
 */
final class Background {

    private Background() {
    }

    static <T> Future<T> start(String name, Callable<T> work) {
        FutureTask<T> task = new FutureTask<>(work);
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
        return task;
    }
}
