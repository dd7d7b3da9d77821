package io.extsock.verbs;

import java.util.concurrent.TimeUnit;

/**
 * Where a connection's work requests report that they finished, in the order they finished.
 * Requests submitted for a future ({@link IwarpConnection#submit}) complete their future
 * instead.
 */
public interface CompletionQueue {

    /**
     * Hands up to {@code max} completions to the handler without blocking and without
     * allocating.
     *
     * @return how many completions the handler received
     */
    int poll(CompletionHandler handler, int max);

    /**
     * Waits until a completion is available or the timeout elapses.
     *
     * @return true if a completion is available
     */
    boolean await(long timeout, TimeUnit unit) throws InterruptedException;

    /**
     * The next completion, waiting up to the timeout; null if none came. Allocates a {@link
     * WorkCompletion}.
     */
    WorkCompletion take(long timeout, TimeUnit unit) throws InterruptedException;

    /** Completions available now. */
    int size();
}
