package io.extsock.examples.perf;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.examples.cli.Sockets;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code perf compare}'s many-connections row: N connections at once, client and server in this
 * process, a thread per connection on each end (platform or virtual threads), each connection
 * doing M request/response round trips of a small message. Two phases, each timed on the wall
 * clock from its start until its last connection is done: setup (start the client threads,
 * connect, and in IWARP_MODE the switch with its MPA negotiation) and, once every connection is
 * up, the round trips.
 */
final class ManyConnections {

    /** Which threads carry the connections, on both ends. */
    enum Threads {
        platform, virtual;

        Thread start(Runnable task, String name) {
            if (this == virtual) {
                return VirtualThreads.start(task);
            }
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            thread.start();
            return thread;
        }
    }

    /** Which sockets the connections run over, on both ends. */
    enum Sockets {
        /** {@code java.net.Socket} and {@code ServerSocket}. */
        plain(PerfMode.plain.description()),
        /** ExtendedSockets in IWARP_MODE; each accepted one negotiates on its first use. */
        iwarp(PerfMode.iwarp.description()),
        /** As {@link #iwarp}, the server socket negotiating before accept (IwarpOptions.NEGOTIATE_BEFORE_ACCEPT). */
        iwarpNegotiatedBeforeAccept(PerfMode.iwarp.description() + ", negotiated before accept");

        private final String description;

        Sockets(String description) {
            this.description = description;
        }

        String description() {
            return description;
        }

        boolean iwarp() {
            return this != plain;
        }
    }

    /** One run's wall-clock times, in nanoseconds. */
    record Result(long setupNanos, long roundTripNanos) {
        long totalNanos() {
            return setupNanos + roundTripNanos;
        }
    }

    private static final long TIMEOUT_SECONDS = 300;

    private ManyConnections() {
    }

    static Result run(Sockets sockets, Threads threads, int connections, int roundTrips, int size)
            throws IOException, InterruptedException {
        boolean iwarp = sockets.iwarp();
        try (ServerSocket server = iwarp ? new ExtendedServerSocket() : new ServerSocket()) {
            if (iwarp) {
                server.setOption(IwarpOptions.IWARP_MODE, true);
            }
            if (sockets == Sockets.iwarpNegotiatedBeforeAccept) {
                server.setOption(IwarpOptions.NEGOTIATE_BEFORE_ACCEPT, true);
            }
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), connections);
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CountDownLatch served = new CountDownLatch(connections);
            List<Thread> servers = Collections.synchronizedList(new ArrayList<>(connections));
            Thread acceptor = new Thread(() -> accept(server, threads, connections, size, served, failure, servers),
                    "perf-compare-many-acceptor");
            acceptor.setDaemon(true);
            acceptor.start();

            CountDownLatch connected = new CountDownLatch(connections);
            CountDownLatch go = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(connections);
            List<Thread> clients = new ArrayList<>(connections);
            try {
                long start = System.nanoTime();
                for (int i = 0; i < connections; i++) {
                    clients.add(threads.start(() -> client(address, iwarp, roundTrips, size, connected, go, done,
                            failure), "perf-compare-many-client"));
                }
                await(connected, failure, "connecting");
                long setUp = System.nanoTime();
                go.countDown();
                await(done, failure, "the round trips");
                long finished = System.nanoTime();
                await(served, failure, "the server's ends");
                // Untimed: 2N threads ending (stacks unmapped, JVM bookkeeping) would otherwise
                // take CPU from the next run's setup.
                acceptor.join();
                for (Thread thread : clients) {
                    thread.join();
                }
                for (Thread thread : servers) {
                    thread.join();
                }
                return new Result(setUp - start, finished - setUp);
            } finally {
                go.countDown();  // after a failure: the clients still waiting end too
            }
        }
    }

    private static void client(InetSocketAddress address, boolean iwarp, int roundTrips, int size,
                               CountDownLatch connected, CountDownLatch go, CountDownLatch done,
                               AtomicReference<Throwable> failure) {
        boolean counted = false;
        try (Socket socket = iwarp ? new ExtendedSocket() : new Socket()) {
            socket.setTcpNoDelay(true);
            if (iwarp) {
                socket.setOption(IwarpOptions.IWARP_MODE, true);  // the switch happens in connect
            }
            socket.connect(address, 60_000);
            connected.countDown();
            counted = true;
            go.await();
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            byte[] request = new byte[size];
            byte[] response = new byte[size];
            for (int i = 0; i < roundTrips; i++) {
                out.write(request);
                if (in.readNBytes(response, 0, size) < size) {
                    throw new EOFException("the server closed after " + i + " round trips");
                }
            }
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
            if (!counted) {
                connected.countDown();
            }
        } finally {
            done.countDown();
        }
    }

    private static void accept(ServerSocket server, Threads threads, int connections, int size, CountDownLatch served,
                               AtomicReference<Throwable> failure, List<Thread> servers) {
        for (int i = 0; i < connections; i++) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                if (!server.isClosed()) {
                    failure.compareAndSet(null, e);
                }
                return;
            }
            servers.add(threads.start(() -> echo(socket, size, served), "perf-compare-many-server"));
        }
    }

    /**
     * Answers every request with as many bytes, until the client closes. Its failures are not
     * reported: a client that read its last answer may close before this end's write completed
     * (see {@link Sockets#awaitClose}); a real loss shows on the client's end.
     */
    private static void echo(Socket socket, int size, CountDownLatch served) {
        try (socket) {
            socket.setTcpNoDelay(true);
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            byte[] message = new byte[size];
            while (in.readNBytes(message, 0, size) == size) {
                out.write(message);
            }
        } catch (IOException e) {
            // see above
        } finally {
            served.countDown();
        }
    }

    private static void await(CountDownLatch latch, AtomicReference<Throwable> failure, String phase)
            throws IOException, InterruptedException {
        if (!latch.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            throw new IOException(phase + " did not end within " + TIMEOUT_SECONDS + " s ("
                    + latch.getCount() + " connections left)");
        }
        Throwable e = failure.get();
        if (e != null) {
            throw e instanceof IOException io ? io : new IOException(phase + " failed: " + e, e);
        }
    }
}
