package io.extsock.core.verbs;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A future whose blocking getters receive on the waiting thread ({@link QueuePair#await}), as
 * {@link InlineCompletionQueue} does, before asking the future.
 */
final class InlineFuture<T> extends CompletableFuture<T> {

    private final QueuePair queuePair;

    InlineFuture(QueuePair queuePair) {
        this.queuePair = queuePair;
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        queuePair.await(this::isDone, 0, true);
        return super.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        queuePair.await(this::isDone, Math.max(1, unit.toNanos(timeout)), true);
        return super.get(0, TimeUnit.NANOSECONDS);
    }

    @Override
    public T join() {
        queuePair.await(this::isDone, 0, false);
        return super.join();
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new CompletableFuture<>();  // dependents are plain futures
    }
}
