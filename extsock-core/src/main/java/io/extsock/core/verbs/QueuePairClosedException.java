package io.extsock.core.verbs;

import java.net.SocketException;

/**
 * Work was posted on a connection that has ended; the message says how it ended. The engine's
 * own: the API reports the same news as a plain {@link SocketException} ({@link
 * QueuePairVerbs}), so that no engine class reaches an application.
 */
public final class QueuePairClosedException extends SocketException {

    public QueuePairClosedException(String reason) {
        super(describe(reason));
    }

    /** The message for a connection that ended for {@code reason} (null: it was closed). */
    static String describe(String reason) {
        return "the iWARP connection has ended: " + (reason != null ? reason : "closed");
    }
}
