package io.extsock.core.verbs;

import java.net.SocketException;

/** Work was posted on a connection that has ended; the message says how it ended. */
public final class QueuePairClosedException extends SocketException {

    public QueuePairClosedException(String reason) {
        super("the iWARP connection has ended: " + (reason != null ? reason : "closed"));
    }
}
