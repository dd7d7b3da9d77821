package io.extsock;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketOption;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.net.SocketFactory;

/**
 * A {@link SocketFactory} that makes {@link ExtendedSocket}s, for code that takes a factory
 * (JDBC drivers, HTTP and Redis clients). Options given to the factory, {@link
 * IwarpOptions#IWARP_MODE} among them, are set on every socket before it connects.
 */
public class ExtendedSocketFactory extends SocketFactory {

    private static final ExtendedSocketFactory DEFAULT = new ExtendedSocketFactory(Map.of());

    private final Map<SocketOption<?>, Object> options;

    /**
     * A factory whose sockets get these options before they connect.
     *
     * @param options socket options ({@link java.net.StandardSocketOptions}, {@link
     *                IwarpOptions}) and their values; copied. An option a socket does not
     *                support, or a value it refuses, fails each {@code createSocket} call
     * @throws NullPointerException if {@code options} is null
     */
    public ExtendedSocketFactory(Map<? extends SocketOption<?>, ?> options) {
        this.options = new LinkedHashMap<>(options);
    }

    /**
     * The factory of plain (passthrough) ExtendedSockets.
     *
     * @return a shared factory that sets no option
     */
    public static SocketFactory getDefault() {
        return DEFAULT;
    }

    @Override
    public Socket createSocket() throws IOException {
        ExtendedSocket socket = new ExtendedSocket();
        try {
            applyOptions(socket);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
        return socket;
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected(host != null
                ? new InetSocketAddress(host, port)
                : new InetSocketAddress(InetAddress.getByName(null), port), null);
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort)
            throws IOException {
        return connected(host != null
                ? new InetSocketAddress(host, port)
                : new InetSocketAddress(InetAddress.getByName(null), port),
                new InetSocketAddress(localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port), null);
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress,
                               int localPort) throws IOException {
        return connected(new InetSocketAddress(address, port),
                new InetSocketAddress(localAddress, localPort));
    }

    private Socket connected(InetSocketAddress remote, InetSocketAddress local) throws IOException {
        Socket socket = createSocket();
        try {
            if (local != null) {
                socket.bind(local);
            }
            socket.connect(remote);
            return socket;
        } catch (IOException | RuntimeException e) {
            try {
                socket.close();
            } catch (IOException closeFailure) {
                e.addSuppressed(closeFailure);
            }
            throw e;
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void applyOptions(Socket socket) throws IOException {
        for (Map.Entry<SocketOption<?>, Object> option : options.entrySet()) {
            socket.setOption((SocketOption) option.getKey(), option.getValue());
        }
    }
}
