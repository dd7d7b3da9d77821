package io.extsock.bench;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.SelectorProvider;

/**
 * A loopback TCP connection whose two channels one {@link SelectorProvider} made (the JDK's, or
 * extsock's), with TCP_NODELAY on both, in blocking mode as opened.
 */
final class ProviderLink implements Closeable {

    final SocketChannel client;
    final SocketChannel server;

    private ProviderLink(SocketChannel client, SocketChannel server) {
        this.client = client;
        this.server = server;
    }

    /** A listener of the provider's on the loopback address, for {@link #connect}. */
    static ServerSocketChannel listen(SelectorProvider provider) throws IOException {
        ServerSocketChannel listener = provider.openServerSocketChannel();
        try {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        } catch (IOException | RuntimeException e) {
            Closing.quietly(listener, e);
            throw e;
        }
        return listener;
    }

    /** A new connection to the listener, both channels of the listener's provider. */
    static ProviderLink connect(ServerSocketChannel listener) throws IOException {
        SocketChannel client = listener.provider().openSocketChannel();
        SocketChannel server = null;
        try {
            client.connect(listener.getLocalAddress());
            server = listener.accept();
            client.setOption(StandardSocketOptions.TCP_NODELAY, true);
            server.setOption(StandardSocketOptions.TCP_NODELAY, true);
            return new ProviderLink(client, server);
        } catch (IOException | RuntimeException e) {
            Closing.quietly(server, e);
            Closing.quietly(client, e);
            throw e;
        }
    }

    /** One connection of the provider's channels. */
    static ProviderLink open(SelectorProvider provider) throws IOException {
        try (ServerSocketChannel listener = listen(provider)) {
            return connect(listener);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            client.close();
        } finally {
            server.close();
        }
    }
}
