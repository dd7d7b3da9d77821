package io.extsock.core.verbs;

import java.util.function.BooleanSupplier;

/**
 * The engine's one way to wait on a connection: the waiting thread makes the connection
 * progress (receives) while its condition is false. The verbs layer's blocking calls ({@link
 * InlineFuture}, {@link InlineCompletionQueue}) wait through it; nothing below waits at all.
 */
public interface InlineWait {

    /**
     * Waits until the condition holds, making the connection progress on the calling thread
     * meanwhile. While input streams in one way, the wait may sleep between its messages
     * (see {@link #awaitPromptly} for a reader whose peer waits on it).
     *
     * @param timeoutNanos 0 or less: no limit
     * @param interruptible whether an interrupt ends the wait (it stays set either way)
     * @return whether the condition holds
     */
    boolean await(BooleanSupplier condition, long timeoutNanos, boolean interruptible);

    /**
     * Like {@link #await}, for a reader whose peer waits on its reads: a socket stream's, whose
     * reads return the writer's credits. Its polls never sleep, where those of {@link #await}
     * may sleep between the messages of a one-way flow (freeing the CPU, and letting messages
     * gather for fewer reads and acknowledgements), and a peer that waits for credits would
     * wait out each sleep.
     */
    default boolean awaitPromptly(BooleanSupplier condition, long timeoutNanos, boolean interruptible) {
        return await(condition, timeoutNanos, interruptible);
    }

    /** Something a waiter may wait for changed outside the connection's own progress: let it look again. */
    void wakeWaiters();

    /**
     * From now on the connection must progress while no thread waits on it: the application uses
     * the verbs (the peer may read or write registered memory; completions may be polled rather
     * than waited for), or stream writes wait in a batch for the peer's credits. Until then it
     * progresses, as a TCP socket does, when a thread waits on it.
     */
    default void progressWhileIdle() {
    }

    /** Receives what has arrived, without blocking, if nobody else is receiving it (for {@code available()}). */
    default void receiveAvailable() {
    }
}
