package io.extsock.testkit.fault;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A TCP relay for one connection between a client and a server, on loopback: the client
 * connects to {@link #address()}, the relay connects to the server, and each direction runs
 * its {@link FaultPlan}. "Upstream" is client to server, "downstream" server to client.
 *
 * <pre>{@code
 * try (FaultRelay relay = FaultRelay.start(server, FaultPlan.none().corruptAt(200, 0x01), FaultPlan.none())) {
 *     client.connect(relay.address());
 *     ...
 *     assertEquals(1, relay.upstream().corruptionsApplied());
 * }
 * }</pre>
 */
public final class FaultRelay implements AutoCloseable {

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final FaultPlan upstreamPlan;
    private final FaultPlan downstreamPlan;
    private final CompletableFuture<Void> connected = new CompletableFuture<>();
    private volatile Socket clientSide;
    private volatile Socket serverSide;
    private volatile RelayedDirection upstream;
    private volatile RelayedDirection downstream;
    private volatile boolean closed;
    private volatile long resetNanos;
    private volatile long faultNanos;

    private FaultRelay(ServerSocket listener, InetSocketAddress target, FaultPlan upstream, FaultPlan downstream) {
        this.listener = listener;
        this.target = target;
        this.upstreamPlan = upstream;
        this.downstreamPlan = downstream;
    }

    /** Listens on an ephemeral loopback port and relays the first connection to {@code target}. */
    public static FaultRelay start(InetSocketAddress target, FaultPlan upstream, FaultPlan downstream)
            throws IOException {
        ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        FaultRelay relay = new FaultRelay(listener, target, upstream, downstream);
        Thread acceptor = new Thread(relay::acceptOne, "fault-relay-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        return relay;
    }

    /** Where the client connects. */
    public InetSocketAddress address() {
        return new InetSocketAddress(listener.getInetAddress(), listener.getLocalPort());
    }

    private void acceptOne() {
        try {
            Socket client = listener.accept();
            Socket server = new Socket();
            server.connect(target, 10_000);
            client.setTcpNoDelay(true);
            server.setTcpNoDelay(true);
            clientSide = client;
            serverSide = server;
            upstream = new RelayedDirection("upstream", client, server, upstreamPlan, this);
            downstream = new RelayedDirection("downstream", server, client, downstreamPlan, this);
            startThread(upstream, "fault-relay-up");
            startThread(downstream, "fault-relay-down");
            connected.complete(null);
        } catch (IOException e) {
            connected.completeExceptionally(e);
            if (!closed) {
                resetBoth();
            }
        }
    }

    private static void startThread(Runnable direction, String name) {
        Thread thread = new Thread(direction, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Waits until the client is connected through to the server. */
    public void awaitConnected(long timeout, TimeUnit unit) throws IOException {
        try {
            connected.get(timeout, unit);
        } catch (ExecutionException e) {
            throw new IOException("the relay could not connect through: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IOException("no client came through the relay within " + timeout + " " + unit);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** What the relay did client to server so far. */
    public FaultReport upstream() {
        return reportOf(upstream);
    }

    /** What the relay did server to client so far. */
    public FaultReport downstream() {
        return reportOf(downstream);
    }

    private static FaultReport reportOf(RelayedDirection direction) {
        if (direction == null) {
            throw new UncheckedIOException(new IOException("no connection came through the relay yet"));
        }
        return direction.report();
    }

    /** Resets both connections now: each peer sees a TCP reset, as if the other one's host died. */
    public void resetBoth() {
        if (resetNanos == 0) {
            resetNanos = System.nanoTime();
        }
        faultHappened();
        reset(clientSide);
        reset(serverSide);
    }

    /** A direction was half-closed or reset: the first such moment is kept. */
    void faultHappened() {
        if (faultNanos == 0) {
            faultNanos = System.nanoTime();
        }
    }

    /** When the relay first half-closed or reset ({@link System#nanoTime()}), or 0 if it has not. */
    public long faultNanos() {
        return faultNanos;
    }

    /** When the relay first reset the connections ({@link System#nanoTime()}), or 0 if it has not. */
    public long resetNanos() {
        return resetNanos;
    }

    private static void reset(Socket socket) {
        if (socket == null) {
            return;
        }
        try {
            socket.setSoLinger(true, 0);  // close with RST, not FIN
        } catch (IOException ignored) {
            // already closed
        }
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        listener.close();
        for (Socket socket : new Socket[] {clientSide, serverSide}) {
            if (socket != null) {
                socket.close();
            }
        }
    }
}
