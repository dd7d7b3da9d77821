package io.extsock.bench;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** The two ends of one loopback connection of a variant, with TCP_NODELAY on both. */
final class ConnectedPair implements Closeable {

    final String variant;
    final Socket client;
    final Socket server;

    private ConnectedPair(String variant, Socket client, Socket server) {
        this.variant = variant;
        this.client = client;
        this.server = server;
    }

    static ConnectedPair open(SocketVariant variant) throws IOException {
        try (ServerSocket listener = variant.newServerSocket()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Socket client = variant.newSocket();
            client.connect(listener.getLocalSocketAddress());
            Socket server = listener.accept();
            client.setTcpNoDelay(true);
            server.setTcpNoDelay(true);
            variant.prepare(client, server);
            return new ConnectedPair(variant.name(), client, server);
        }
    }

    @Override
    public void close() throws IOException {
        client.close();
        server.close();
    }
}
