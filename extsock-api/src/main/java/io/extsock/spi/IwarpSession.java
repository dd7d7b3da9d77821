package io.extsock.spi;

import io.extsock.verbs.IwarpConnection;

/** A connection that a provider switched to iWARP: its stream and its extended side. */
public interface IwarpSession {

    /**
     * The socket's byte stream over iWARP.
     *
     * @return what the socket's input and output streams read and write from now on
     */
    SocketTransport stream();

    /**
     * The verbs view: registered memory, work requests, completions.
     *
     * @return what {@link io.extsock.ExtendedSocket#iwarp()} returns
     */
    IwarpConnection connection();

    /**
     * Changes how long a thread about to wait on this connection polls before it blocks
     * ({@link io.extsock.IwarpOptions#SPIN_MICROS}), from its next wait on.
     *
     * @param micros the longest spin, already checked against the option's range
     */
    void spinMicros(int micros);

    /**
     * The connection's readiness, for a selector that waits on many connections with one thread.
     *
     * @return what the connection is ready for, with a call whenever that may have changed
     * @throws UnsupportedOperationException if this provider's connections do not report it
     */
    default Readiness readiness() {
        throw new UnsupportedOperationException(getClass().getName() + " does not report readiness");
    }
}
