package io.extsock.spi;

import io.extsock.verbs.IwarpConnection;

/** A connection that a provider switched to iWARP: its stream and its extended side. */
public interface IwarpSession {

    /** The socket's byte stream over iWARP. */
    SocketTransport stream();

    /** The verbs view: registered memory, work requests, completions. */
    IwarpConnection connection();
}
