package io.extsock.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * What {@link io.extsock.ExtendedSocket}'s connecting constructors do, as Socket's do: resolve
 * the host as Socket resolves it, bind and connect the new socket, and close it when either
 * fails, so that a constructor that throws leaves nothing open.
 */
public final class ConnectingConstructors {

    private ConnectingConstructors() {
    }

    /** The remote end for a host name and port; a null host means the loopback address. */
    public static InetSocketAddress remote(String host, int port) throws UnknownHostException {
        return host != null
                ? new InetSocketAddress(host, port)
                : new InetSocketAddress(InetAddress.getByName(null), port);
    }

    /**
     * Binds a new socket to {@code local}, if given, and connects it to {@code remote}.
     *
     * @throws NullPointerException if {@code remote} is null
     * @throws IllegalArgumentException if {@code stream} is false: no datagram sockets
     * @throws IOException if binding or connecting fails; the socket is then closed
     */
    public static void bindAndConnect(Socket socket, SocketAddress remote, SocketAddress local, boolean stream)
            throws IOException {
        Objects.requireNonNull(remote);
        if (!stream) {
            throw new IllegalArgumentException(
                    "Socket constructor does not support creation of datagram sockets");
        }
        try {
            if (local != null) {
                socket.bind(local);
            }
            socket.connect(remote);
        } catch (IOException | RuntimeException e) {
            CloseAfterFailure.close(socket, e);
            throw e;
        }
    }
}
