package io.extsock.agent.e2e.programs;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An ordinary NIO program that knows nothing of extsock: a server on a selector, which echoes
 * what a connection sends until it closes, and a blocking client that sends a pattern and checks
 * the echo, each with the JDK's factories ({@code ServerSocketChannel.open()}, {@code
 * Selector.open()}, {@code SocketChannel.open()}).
 *
 * <p>Usage: {@code NioEcho both BYTES} (server and client in this JVM), {@code NioEcho server}
 * (prints {@code PORT n}, serves connections one after another until it is ended), {@code NioEcho
 * client PORT BYTES}. The client
 * prints {@code ECHOED n} and the class of its channel; any failure is one line, {@code error:
 * ...}, and exit status 1.
 */
public final class NioEcho {

    private NioEcho() {
    }

    public static void main(String[] arguments) {
        try {
            switch (arguments[0]) {
                case "both" -> {
                    try (ServerSocketChannel listener = listen()) {
                        CompletableFuture<Void> server = CompletableFuture.runAsync(() -> serveOne(listener));
                        client(((InetSocketAddress) listener.getLocalAddress()).getPort(), Integer.parseInt(arguments[1]));
                        server.get(30, TimeUnit.SECONDS);
                    }
                }
                case "server" -> {
                    try (ServerSocketChannel listener = listen()) {
                        System.out.println("PORT " + ((InetSocketAddress) listener.getLocalAddress()).getPort());
                        while (true) {
                            serveOne(listener);  // one connection after another, until the process is ended
                        }
                    }
                }
                case "client" -> client(Integer.parseInt(arguments[1]), Integer.parseInt(arguments[2]));
                default -> throw new IllegalArgumentException("no mode " + arguments[0]);
            }
        } catch (Exception e) {
            System.out.println("error: " + e);
            System.exit(1);
        }
    }

    private static ServerSocketChannel listen() throws IOException {
        return ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    /** Echoes one connection, on a selector, until it ends. */
    private static void serveOne(ServerSocketChannel listener) {
        try (Selector selector = Selector.open(); SocketChannel connection = listener.accept()) {
            connection.configureBlocking(false);
            SelectionKey key = connection.register(selector, SelectionKey.OP_READ);
            ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
            while (true) {
                selector.select();
                selector.selectedKeys().clear();
                if (key.isReadable()) {
                    int n = connection.read(buffer);
                    if (n < 0) {
                        return;
                    }
                }
                buffer.flip();
                while (buffer.hasRemaining()) {
                    if (connection.write(buffer) == 0) {
                        key.interestOps(SelectionKey.OP_WRITE);
                        selector.select();
                        selector.selectedKeys().clear();
                        key.interestOps(SelectionKey.OP_READ);
                    }
                }
                buffer.clear();
            }
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    private static void client(int port, int bytes) throws IOException {
        try (SocketChannel channel = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))) {
            ByteBuffer out = ByteBuffer.allocate(bytes);
            for (int i = 0; i < bytes; i++) {
                out.put((byte) (i * 31 + 7));
            }
            out.flip();
            ByteBuffer in = ByteBuffer.allocate(bytes);
            while (out.hasRemaining() || in.hasRemaining()) {
                if (out.hasRemaining()) {
                    channel.write(out);  // blocking: all of it; the echo server reads as it goes
                }
                if (channel.read(in) < 0) {
                    throw new IOException("end of stream after " + in.position() + " octets");
                }
            }
            for (int i = 0; i < bytes; i++) {
                if (in.get(i) != (byte) (i * 31 + 7)) {
                    throw new IOException("octet " + i + " differs");
                }
            }
            System.out.println("ECHOED " + bytes + " on " + channel.getClass().getName());
        }
    }
}
