package io.extsock.contract;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * One way of making sockets, for the contract suite: plain {@code java.net}, passthrough
 * ExtendedSocket, and (in extsock-core) ExtendedSocket in IWARP_MODE.
 */
public interface SocketKind {

    /** A short name for test reports. */
    String name();

    /** An unconnected client socket. */
    Socket newSocket() throws IOException;

    /** An unbound server socket. */
    ServerSocket newServerSocket() throws IOException;

    /** A server socket bound to an ephemeral port on the loopback address. */
    default ServerSocket newBoundServerSocket() throws IOException {
        ServerSocket server = newServerSocket();
        server.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return server;
    }

    /**
     * Called on both ends once a connection exists, before the test uses it: where the kind
     * needs a mode switch (IWARP_MODE), it happens here.
     */
    default void prepareConnected(Socket socket, boolean accepted) throws IOException {
    }

    /**
     * Whether prepared connections carry TCP urgent data as Socket does. IWARP_MODE cannot (its
     * stream is RDMAP Sends) and refuses it with a SocketException: a documented difference.
     */
    default boolean supportsUrgentData() {
        return true;
    }
}
