package io.extsock.nio;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.SelectorProvider;

/**
 * Run in a JVM of its own whose provider is extsock's (by the system property): opens channels
 * and a selector the JDK's way, echoes a byte, and prints what it found.
 */
public final class JvmWideProviderProbe {

    private JvmWideProviderProbe() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("provider " + SelectorProvider.provider().getClass().getName());
        try (ServerSocketChannel server = ServerSocketChannel.open()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel client = SocketChannel.open(server.getLocalAddress());
             SocketChannel accepted = server.accept();
             Selector selector = Selector.open()) {
            System.out.println("channel " + client.getClass().getName());
            System.out.println("selector " + selector.getClass().getName());
            client.write(ByteBuffer.wrap(new byte[] {42}));
            ByteBuffer in = ByteBuffer.allocate(1);
            accepted.read(in);
            System.out.println("echoed " + in.get(0));
        }
    }
}
