package io.extsock.rdma.events;

import java.io.IOException;

/**
 * Where a device's events come from: a non-blocking descriptor that polls readable when events
 * wait (an rdma_cm event channel, a completion channel), and the call that takes one.
 *
 * @param <E> the event, as a Java copy
 */
public interface EventSource<E> {

    /** @return the descriptor the event thread polls; non-blocking */
    int fd();

    /**
     * Takes the next waiting event, copies what the handler needs out of native memory, and
     * acknowledges the event before returning it; so that no event a handler holds keeps an
     * identifier or a CQ from being destroyed. Never blocks.
     *
     * @return the event, or null if none is waiting
     * @throws IOException if the source failed; the event thread then stops watching it
     */
    E take() throws IOException;
}
