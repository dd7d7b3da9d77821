package io.extsock.internal.nio;

import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;

/** A channel of extsock's provider that runs on a channel of the JDK's: what its selector watches. */
public interface PlatformBacked {

    /**
     * The JDK's channel underneath, whose descriptor a selector watches.
     *
     * @return it
     */
    SelectableChannel platformChannel();

    /**
     * An extsock selector watches {@link #platformChannel} with this key of its JDK selector,
     * which it cancels itself at its next selection once its own key is cancelled.
     *
     * @param platformKey the JDK selector's key on {@link #platformChannel}
     */
    void watchedBy(SelectionKey platformKey);

    /**
     * Where the channel's readiness comes from besides its descriptor.
     *
     * @return it; null if from the descriptor alone
     */
    default EventReadiness events() {
        return this instanceof EventReadiness readiness ? readiness : null;
    }
}
