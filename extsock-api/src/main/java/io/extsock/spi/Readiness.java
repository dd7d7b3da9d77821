package io.extsock.spi;

import java.nio.channels.SelectionKey;

/**
 * What one IWARP_MODE connection is ready for, and a call whenever that may have changed: what a
 * selector needs to wait on many connections with one thread, without spinning and without a
 * thread per connection.
 *
 * <p>A selector registers a {@link #watch}, then on each call (and once after registering)
 * looks at {@link #readyOps} and at what it waits for. The calls say only that something may
 * have changed: one call may stand for several changes, and a call may change nothing.
 */
public interface Readiness {

    /**
     * A read of the connection's stream would not block: bytes are there, or the end of the
     * stream, or an error it would throw at once. The same bit as {@link SelectionKey#OP_READ}.
     */
    int READABLE = SelectionKey.OP_READ;
    /**
     * A write of one byte to the connection's stream would not block: credits and a Send are
     * free, or it would fail at once. The same bit as {@link SelectionKey#OP_WRITE}.
     */
    int WRITABLE = SelectionKey.OP_WRITE;
    /** A work completion waits in the connection's completion queue. */
    int COMPLETIONS = 1 << 8;
    /** The connection ended (closed, reset, terminated or failed): nothing more arrives. */
    int CLOSED = 1 << 9;

    /**
     * What the connection is ready for now.
     *
     * @return the bits above that hold now
     */
    int readyOps();

    /**
     * Asks for a call whenever something {@link #readyOps} says may have changed (input
     * processed, room or credits returned, a completion, the end), until the watch is closed.
     * While any watch is open the engine reads the connection itself, as it does for a thread
     * that waits on it, so that the watcher needs no thread of its own on the connection.
     *
     * @param changed what to call, on the thread that made the change: it must be quick and must
     *                not block (a {@link java.nio.channels.Selector#wakeup}, for example); an
     *                exception it throws is logged and does not reach the connection
     * @return the watch; closing it stops the calls (closing it again does nothing)
     */
    Watch watch(Runnable changed);

    /** An open {@link #watch}. */
    interface Watch extends AutoCloseable {
        /** Stops the calls; closing a closed watch does nothing. */
        @Override
        void close();
    }
}
