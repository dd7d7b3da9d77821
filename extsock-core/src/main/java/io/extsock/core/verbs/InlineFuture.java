package io.extsock.core.verbs;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A future whose blocking getters receive on the waiting thread ({@link InlineWait#await}), as
 * {@link InlineCompletionQueue} does, before asking the future.
 */
final class InlineFuture<T> extends CompletableFuture<T> {

    private final InlineWait waiting;

    InlineFuture(InlineWait waiting) {
        this.waiting = waiting;
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        waiting.await(this::isDone, 0, true);
        return super.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        waiting.await(this::isDone, Math.max(1, unit.toNanos(timeout)), true);
        return super.get(0, TimeUnit.NANOSECONDS);
    }

    @Override
    public T join() {
        waiting.await(this::isDone, 0, false);
        return super.join();
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new CompletableFuture<>();  // dependents are plain futures
    }
}
