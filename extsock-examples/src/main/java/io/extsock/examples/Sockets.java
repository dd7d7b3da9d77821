package io.extsock.examples;

import java.io.Closeable;
import java.io.IOException;
import java.net.Socket;

/** Small socket chores the commands share. */
final class Sockets {

    private Sockets() {
    }

    /**
     * IWARP_MODE sockets get TCP_NODELAY. The engine's small messages (stream credit updates,
     * Read Requests, completion notices) otherwise wait for Nagle's algorithm and the peer's
     * delayed ACK: 64 KiB stream writes ran at 4 MB/s without it, over 100 MB/s with it. Linux
     * siw sets it on its sockets too.
     */
    static void noDelayForIwarp(Socket socket) throws IOException {
        socket.setTcpNoDelay(true);
    }

    /**
     * Waits for the peer to close, after the peer sent the last message of a protocol. The
     * sender of the last message closes first: in IWARP_MODE a write whose bytes the peer has
     * read can still fail if the peer closes before the writer sees its send complete.
     */
    static void awaitClose(Socket socket) throws IOException {
        socket.setSoTimeout(30_000);
        try {
            while (socket.getInputStream().read() >= 0) {
                // nothing more is expected; whatever comes is dropped
            }
        } catch (IOException e) {
            // the peer lingers (timeout) or went away abruptly: either way the exchange is over
        }
    }

    static void closeQuietly(Closeable closeable) {
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
