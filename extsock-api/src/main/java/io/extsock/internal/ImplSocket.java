package io.extsock.internal;

import java.net.Socket;
import java.net.SocketException;
import java.net.SocketImpl;

/**
 * A plain {@code java.net.Socket} running on a {@link ChannelSocketImpl}. It keeps the JDK's
 * own socket state machine, checks and messages; {@link io.extsock.ExtendedSocket} forwards
 * every call to one of these.
 */
public final class ImplSocket extends Socket {

    private ImplSocket(SocketImpl impl) throws SocketException {
        super(impl);
    }

    /** A new unconnected socket on the given implementation. */
    public static ImplSocket on(ChannelSocketImpl impl) {
        try {
            return new ImplSocket(impl);
        } catch (SocketException e) {
            // Socket(SocketImpl) declares SocketException but only ever throws SecurityException.
            throw new IllegalStateException("cannot create a socket on a custom SocketImpl", e);
        }
    }
}
