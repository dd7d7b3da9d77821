package io.extsock.internal.nio;

import io.extsock.spi.Readiness;

/**
 * A channel whose readiness may come from somewhere other than its descriptor: one in
 * IWARP_MODE, whose socket the iWARP engine reads (the bytes a read would return wait decoded in
 * the engine's buffers, and the descriptor says nothing of them), or one whose connect goes on
 * past TCP's (the MPA negotiation). An {@link ExtendedSelector} asks it what to watch on the
 * descriptor and what is ready besides, and watches it for changes, which end a selection in
 * progress.
 *
 * <p>A channel in passthrough has its descriptor's readiness only: all of the interest is asked
 * of the descriptor, its readiness is taken as it is, and nothing else is ever ready.
 */
interface EventReadiness {

    /**
     * Whether the channel's readiness comes from events now (it did not switch yet: no). A
     * selector looks at a channel's events from its registration if so, else from its first
     * change.
     */
    boolean fromEvents();

    /**
     * What to watch on the descriptor for the application's interest.
     *
     * @param interest the key's interest set
     * @return the interest for the JDK selector's key
     */
    int descriptorInterest(int interest);

    /**
     * What the descriptor's readiness means to the application.
     *
     * @param ready what the JDK selector found ready
     * @return what the application's key is ready for (0 while, say, a negotiation goes on)
     */
    int fromDescriptor(int ready);

    /**
     * What is ready now that the descriptor does not show.
     *
     * @param interest the key's interest set
     * @return the ops of interest that are ready
     */
    int readyOps(int interest);

    /**
     * Asks for a call whenever {@link #descriptorInterest} or {@link #readyOps} may have changed.
     *
     * @return the watch, closed when the key leaves the selector
     */
    Readiness.Watch watch(Runnable changed);
}
