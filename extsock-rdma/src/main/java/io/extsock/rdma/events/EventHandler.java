package io.extsock.rdma.events;

import java.io.IOException;

/**
 * What the event thread calls for a source's events. It runs on the device's event thread:
 * it must not block (a blocked handler stalls every connection of the device); it may stop
 * watching its own source and destroy what the source's events were about.
 *
 * @param <E> the event
 */
public interface EventHandler<E> {

    /** @param event an event, already acknowledged */
    void onEvent(E event);

    /**
     * The source failed and is no longer watched.
     *
     * @param failure what {@link EventSource#take()} threw
     */
    void onFailure(IOException failure);
}
