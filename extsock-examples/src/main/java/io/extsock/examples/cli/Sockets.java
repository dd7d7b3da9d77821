package io.extsock.examples.cli;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/** Small socket chores the commands share. */
public final class Sockets {

    private Sockets() {
    }

    /**
     * IWARP_MODE sockets get TCP_NODELAY. The engine's small messages (stream credit updates,
     * Read Requests, completion notices) otherwise wait for Nagle's algorithm and the peer's
     * delayed ACK: 64 KiB stream writes ran at 4 MB/s without it, over 100 MB/s with it. Linux
     * siw sets it on its sockets too.
     */
    /** "host:port" of the socket's peer, as messages name it. */
    public static String peer(Socket socket) {
        InetSocketAddress remote = (InetSocketAddress) socket.getRemoteSocketAddress();
        return remote == null ? "(not connected)" : remote.getAddress().getHostAddress() + ":" + remote.getPort();
    }

    public static void noDelayForIwarp(Socket socket) throws IOException {
        socket.setTcpNoDelay(true);
    }

    /**
     * The closing rule of every protocol here: the client reads the final message and closes
     * first; the server waits for that. In IWARP_MODE a write whose bytes the peer has already
     * read can still fail if the peer closes before the writer saw its Send complete, so a
     * server that closed first could break the client's last write.
     */
    public static void awaitClose(Socket socket) throws IOException {
        socket.setSoTimeout(30_000);
        try {
            while (socket.getInputStream().read() >= 0) {
                // nothing more is expected; whatever comes is dropped
            }
        } catch (IOException e) {
            // the peer lingers (timeout) or went away abruptly: either way the exchange is over
        }
    }

    /**
     * The server's final message: the client closes as soon as it has read it, perhaps before
     * this write saw its Send complete (see {@link #awaitClose}), so a failure here is the end
     * the protocol expects; a real loss shows on the client's side.
     */
    public static void writeLast(Socket socket, byte[] message) {
        try {
            socket.getOutputStream().write(message);
            socket.getOutputStream().flush();
        } catch (IOException closedByTheClient) {
            // see above
        }
    }

    public static void closeQuietly(Closeable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (IOException ignored) {
            // closing after a failure: the failure is what gets reported
        }
    }
}
