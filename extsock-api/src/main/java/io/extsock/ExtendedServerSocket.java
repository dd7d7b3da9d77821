package io.extsock;

import io.extsock.internal.ChannelServerSocketImpl;
import io.extsock.internal.ChannelSocketImpl;
import io.extsock.internal.ImplSocket;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketException;

/**
 * A {@link ServerSocket} whose {@link #accept()} returns {@link ExtendedSocket}s. It behaves
 * exactly as {@code java.net.ServerSocket}; with {@link IwarpOptions#IWARP_MODE} set on it,
 * every accepted connection switches to iWARP as the MPA responder.
 *
 * <p>That switch is deferred to the accepted socket's first use (a read, a write, {@link
 * ExtendedSocket#iwarp()}), on the thread that uses it: {@code accept()} returns at once, as for
 * plain TCP, so a slow or misbehaving client cannot hold up the clients behind it, and a failed
 * negotiation reaches the code that handles that connection (the socket is then closed) instead
 * of breaking the accept loop. With {@link IwarpOptions#NEGOTIATE_BEFORE_ACCEPT} the server
 * socket negotiates each connection as it arrives instead, and {@code accept()} returns sockets
 * already switched.
 *
 * <p>{@link #getChannel()} returns {@code null}, as for any ServerSocket not made by a channel.
 */
public class ExtendedServerSocket extends ServerSocket {

    private static final int DEFAULT_BACKLOG = 50;

    /**
     * Creates an unbound server socket.
     *
     * @throws IOException if the socket cannot be opened
     */
    public ExtendedServerSocket() throws IOException {
        super(new ChannelServerSocketImpl());
    }

    /**
     * Creates a server socket bound to the port, on every local address, with a backlog of 50.
     *
     * @param port the port, or 0 for an ephemeral port
     * @throws IOException if the socket cannot be opened or bound (a port in use, say)
     * @throws IllegalArgumentException if the port is outside 0 to 65535
     */
    public ExtendedServerSocket(int port) throws IOException {
        this(port, DEFAULT_BACKLOG, null);
    }

    /**
     * Creates a server socket bound to the port, on every local address, with the given backlog.
     *
     * @param port    the port, or 0 for an ephemeral port
     * @param backlog the longest queue of pending connections; below 1 means 50
     * @throws IOException if the socket cannot be opened or bound (a port in use, say)
     * @throws IllegalArgumentException if the port is outside 0 to 65535
     */
    public ExtendedServerSocket(int port, int backlog) throws IOException {
        this(port, backlog, null);
    }

    /**
     * Creates a server socket bound to the local address and port with the given backlog.
     *
     * @param port     the port, or 0 for an ephemeral port
     * @param backlog  the longest queue of pending connections; below 1 means 50
     * @param bindAddr the local address to listen on, or null for every local address
     * @throws IOException if the socket cannot be opened or bound (a port in use, say)
     * @throws IllegalArgumentException if the port is outside 0 to 65535
     */
    public ExtendedServerSocket(int port, int backlog, InetAddress bindAddr) throws IOException {
        this();
        if (port < 0 || port > 0xFFFF) {
            close();
            throw new IllegalArgumentException("Port value out of range: " + port);
        }
        try {
            bind(new InetSocketAddress(bindAddr, port), backlog < 1 ? DEFAULT_BACKLOG : backlog);
        } catch (IOException | RuntimeException e) {
            try {
                close();
            } catch (IOException closeFailure) {
                e.addSuppressed(closeFailure);
            }
            throw e;
        }
    }

    /**
     * Waits for a connection and returns it as an ExtendedSocket, in IWARP_MODE if this
     * server socket has it set.
     *
     * @return the accepted connection
     * @throws IOException as {@link ServerSocket#accept()}: closed, not bound, timed out
     *         ({@link java.net.SocketTimeoutException}) or an I/O error
     */
    @Override
    public ExtendedSocket accept() throws IOException {
        if (isClosed()) {
            throw new SocketException("Socket is closed");
        }
        if (!isBound()) {
            throw new SocketException("Socket is not bound yet");
        }
        ChannelSocketImpl impl = new ChannelSocketImpl();
        ImplSocket connection = ImplSocket.on(impl);
        implAccept(connection);
        return new ExtendedSocket(impl, connection);
    }
}
