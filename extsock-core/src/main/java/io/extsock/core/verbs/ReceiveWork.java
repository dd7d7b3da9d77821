package io.extsock.core.verbs;

import java.nio.ByteBuffer;

/**
 * One entry of a connection's receive queue: the buffers for the peer's next Send, in order.
 * Pooled and reused; owned by the queue pair's lock while queued, then by the receive side.
 */
final class ReceiveWork {

    long tag;
    WorkCompleter completer;

    /** Where the Send's octets go, in order: views of the scattered slices. */
    final ByteBuffer[] scatter = new ByteBuffer[io.extsock.verbs.WorkRequest.MAX_SLICES];
    int scatterCount;
    long capacity;

    /** Octets of the current Send placed so far (its MO). */
    long received;

    /** Set when the incoming Send was longer than {@link #capacity}. */
    boolean overflow;

    void clear() {
        for (int i = 0; i < scatterCount; i++) {
            scatter[i] = null;
        }
        scatterCount = 0;
        capacity = 0;
        received = 0;
        overflow = false;
        completer = null;
    }
}
