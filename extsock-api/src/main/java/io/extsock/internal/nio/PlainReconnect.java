package io.extsock.internal.nio;

import java.io.IOException;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;

/**
 * The new TCP connection of a client channel's fallback: the peer read our MPA Request, so the
 * channel goes on over another connection to the same peer, on the JDK's provider, in the
 * channel's blocking mode, with Nagle as the application set it.
 */
final class PlainReconnect {

    private PlainReconnect() {
    }

    static SocketChannel to(SocketAddress remote, boolean blocking, boolean noDelay) throws IOException {
        SocketChannel fresh = PlatformProvider.get().openSocketChannel();
        try {
            fresh.setOption(StandardSocketOptions.TCP_NODELAY, noDelay);
            fresh.connect(remote);
            fresh.configureBlocking(blocking);
            return fresh;
        } catch (IOException e) {
            fresh.close();
            throw e;
        }
    }
}
