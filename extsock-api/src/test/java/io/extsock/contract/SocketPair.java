package io.extsock.contract;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A server socket and both ends of one connection through it, all of one kind. */
public final class SocketPair implements AutoCloseable {

    public final ServerSocket server;
    public final Socket client;
    public final Socket accepted;

    private SocketPair(ServerSocket server, Socket client, Socket accepted) {
        this.server = server;
        this.client = client;
        this.accepted = accepted;
    }

    /** Connects a new client to a new server of the kind and prepares both ends. */
    public static SocketPair open(SocketKind kind) throws IOException {
        ServerSocket server = kind.newBoundServerSocket();
        Socket client = null;
        Socket accepted = null;
        try {
            client = kind.newSocket();
            client.connect(new InetSocketAddress(server.getInetAddress(), server.getLocalPort()), 10_000);
            accepted = server.accept();
            prepareBoth(kind, client, accepted);
            return new SocketPair(server, client, accepted);
        } catch (IOException | RuntimeException e) {
            closeQuietly(accepted);
            closeQuietly(client);
            closeQuietly(server);
            throw e;
        }
    }

    /** Runs the kind's preparation on both ends at once: a mode switch needs both to talk. */
    static void prepareBoth(SocketKind kind, Socket client, Socket accepted) throws IOException {
        CompletableFuture<Void> acceptedSide = CompletableFuture.runAsync(() -> {
            try {
                kind.prepareConnected(accepted, true);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        kind.prepareConnected(client, false);
        try {
            acceptedSide.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while preparing the accepted socket", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("preparing the accepted socket failed", e);
        }
    }

    @Override
    public void close() {
        closeQuietly(accepted);
        closeQuietly(client);
        closeQuietly(server);
    }

    static void closeQuietly(AutoCloseable closeable) {
        if (closeable != null) {
            try {
                closeable.close();
            } catch (Exception ignored) {
                // best effort: the test has already recorded what mattered
            }
        }
    }
}
