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
     * @param handler receives each completion, on the calling thread
     * @param max     the most completions to hand over in this call
     * @return how many completions the handler received (0 if none was available)
     */
    int poll(CompletionHandler handler, int max);

    /**
     * Waits until a completion is available or the timeout elapses, without taking it.
     *
     * @param timeout how long to wait at most
     * @param unit    the unit of {@code timeout}
     * @return true if a completion is available
     * @throws InterruptedException if the thread is interrupted while it waits
     */
    boolean await(long timeout, TimeUnit unit) throws InterruptedException;

    /**
     * Takes the next completion, waiting up to the timeout; <b>returns null if none came within
     * the timeout</b>, as {@link java.util.concurrent.BlockingQueue#poll(long, TimeUnit)} does, so
     * check the result before using it. Allocates a {@link WorkCompletion}.
     *
     * <pre>{@code
     * WorkCompletion completion = connection.completions().take(5, TimeUnit.SECONDS);
     * if (completion == null) {
     *     throw new TimeoutException("no completion within 5 s");
     * }
     * }</pre>
     *
     * @param timeout how long to wait at most
     * @param unit    the unit of {@code timeout}
     * @return the completion, or null if none came within the timeout
     * @throws InterruptedException if the thread is interrupted while it waits
     */
    WorkCompletion take(long timeout, TimeUnit unit) throws InterruptedException;

    /**
     * Counts the completions that are available now.
     *
     * @return how many completions {@link #poll} would hand over at once, without a limit; it may
     *     count one that the engine is still writing, which a poll hands over a moment later
     *     ({@link #await} waits for it to be written)
     */
    int size();
}
