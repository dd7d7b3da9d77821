package io.extsock;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketOption;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.net.ServerSocketFactory;

/**
 * A {@link ServerSocketFactory} that makes {@link ExtendedServerSocket}s. Options given to the
 * factory, {@link IwarpOptions#IWARP_MODE} among them, are set on every server socket before
 * it binds, and so apply to every connection it accepts.
 */
public class ExtendedServerSocketFactory extends ServerSocketFactory {

    private static final ExtendedServerSocketFactory DEFAULT =
            new ExtendedServerSocketFactory(Map.of());

    private static final int DEFAULT_BACKLOG = 50;

    private final Map<SocketOption<?>, Object> options;

    /**
     * A factory whose server sockets get these options before they bind.
     *
     * @param options socket options ({@link java.net.StandardSocketOptions}, {@link
     *                IwarpOptions}) and their values; copied. An option a server socket does
     *                not support, or a value it refuses, fails each {@code createServerSocket}
     *                call
     * @throws NullPointerException if {@code options} is null
     */
    public ExtendedServerSocketFactory(Map<? extends SocketOption<?>, ?> options) {
        this.options = new LinkedHashMap<>(options);
    }

    /**
     * The factory of plain (passthrough) ExtendedServerSockets.
     *
     * @return a shared factory that sets no option
     */
    public static ServerSocketFactory getDefault() {
        return DEFAULT;
    }

    @Override
    public ServerSocket createServerSocket() throws IOException {
        ExtendedServerSocket server = new ExtendedServerSocket();
        try {
            applyOptions(server);
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    @Override
    public ServerSocket createServerSocket(int port) throws IOException {
        return bound(port, DEFAULT_BACKLOG, null);
    }

    @Override
    public ServerSocket createServerSocket(int port, int backlog) throws IOException {
        return bound(port, backlog, null);
    }

    @Override
    public ServerSocket createServerSocket(int port, int backlog, InetAddress ifAddress)
            throws IOException {
        return bound(port, backlog, ifAddress);
    }

    private ServerSocket bound(int port, int backlog, InetAddress address) throws IOException {
        if (port < 0 || port > 0xFFFF) {
            throw new IllegalArgumentException("Port value out of range: " + port);
        }
        ServerSocket server = createServerSocket();
        try {
            server.bind(new InetSocketAddress(address, port), backlog < 1 ? DEFAULT_BACKLOG : backlog);
            return server;
        } catch (IOException | RuntimeException e) {
            try {
                server.close();
            } catch (IOException closeFailure) {
                e.addSuppressed(closeFailure);
            }
            throw e;
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void applyOptions(ServerSocket server) throws IOException {
        for (Map.Entry<SocketOption<?>, Object> option : options.entrySet()) {
            server.setOption((SocketOption) option.getKey(), option.getValue());
        }
    }
}
