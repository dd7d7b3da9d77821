package io.extsock.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;

/**
 * How a socket connected, kept so that a fallback's reconnect connects again the same way: from
 * the local address the application bound (on a new ephemeral port: the old one may linger in
 * TIME_WAIT), with the options it set and the timeout its connect had.
 */
final class ConnectRecipe {

    /** The local address the application bound to, null if none. */
    private volatile InetAddress boundAddress;
    /** The connect's timeout in milliseconds, 0 for none. */
    private volatile int connectMillis;

    void bound(InetAddress local) {
        boundAddress = local;
    }

    void connecting(int millis) {
        connectMillis = millis;
    }

    /**
     * A blocking connect, as Socket's. Without a timeout, the channel's own connect: one system
     * call, where the adaptor's makes the socket non-blocking, connects, polls and makes it
     * blocking again (six). With one, the adaptor, which times it without a Selector.
     */
    static void connectBlocking(SocketChannel channel, InetSocketAddress remote, int millis) throws IOException {
        if (millis > 0) {
            channel.socket().connect(remote, millis);
        } else {
            channel.connect(remote);
        }
    }

    /**
     * A new channel, set up and connected to {@code remote} as the first one was.
     *
     * @throws IOException the connect's error; the new channel is then closed
     */
    SocketChannel connectAgain(InetSocketAddress remote, ChannelSocketOptions options) throws IOException {
        SocketChannel fresh = SocketChannel.open();
        try {
            options.applyTo(fresh);
            InetAddress local = boundAddress;
            if (local != null) {
                fresh.bind(new InetSocketAddress(local, 0));
            }
            connectBlocking(fresh, remote, connectMillis);
            return fresh;
        } catch (IOException | RuntimeException e) {
            fresh.close();
            throw e;
        }
    }
}
