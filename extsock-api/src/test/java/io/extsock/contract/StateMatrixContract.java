package io.extsock.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every stream and socket operation after every state a connection can reach, compared with
 * java.net.Socket on the running JDK: one named test per (kind, state, operation) cell.
 *
 * <p>A cell opens a connection of the kind, takes both of the client's streams while they can
 * be had (code keeps its streams; the JDK's semantics for a stream taken earlier are the ones
 * that are easy to get wrong), lets the peer write {@code "abc"} and waits until the client can
 * read it, moves the client into the state, runs the operation, and records what every step
 * returned or threw, then the socket's state flags. The transcript must equal that of a plain
 * Socket in the same cell.
 *
 * <p>Kinds whose behaviour differs in a documented way (docs/guide.md, "Differences from
 * java.net.Socket") say so through {@link #documentedDifference}, which then states the documented
 * behaviour; nothing else is exempt.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class StateMatrixContract {

    /** The kinds under test (the reference, plain java.net.Socket, is what they are compared with). */
    protected abstract List<SocketKind> kinds();

    /**
     * What this kind does instead of java.net.Socket in the cell, where that is a documented
     * difference: the expected transcript, or null where the kind behaves as Socket.
     */
    protected List<String> documentedDifference(SocketKind kind, State state, Operation operation,
                                                List<String> plain) {
        return null;
    }

    /** The states a client socket can be in when code calls it. */
    public enum State {
        /** New, never connected. */
        UNCONNECTED,
        /** Connected, the peer's "abc" waiting. */
        CONNECTED,
        /** {@code shutdownInput()} (the peer's bytes are discarded). */
        INPUT_SHUT,
        /** {@code shutdownOutput()}. */
        OUTPUT_SHUT,
        /** Both shut down. */
        BOTH_SHUT,
        /** The peer wrote "abc" and closed in order. */
        PEER_CLOSED,
        /** The peer wrote "abc" and closed with SO_LINGER 0 (a reset). */
        PEER_RESET,
        /** The peer wrote "abc" and closed; the client read all of it and then -1. */
        END_OF_STREAM_SEEN,
        /** The client closed the socket. */
        CLOSED,
        /** Another thread closed the socket while the client was blocked in read(). */
        CLOSED_WHILE_READING
    }

    /** What code can do with a socket and its streams. */
    public enum Operation {
        READ, READ_ARRAY, READ_RANGE, READ_N_BYTES, AVAILABLE, SKIP,
        WRITE_INT, WRITE_ARRAY, WRITE_RANGE, FLUSH,
        CLOSE_INPUT_STREAM, CLOSE_OUTPUT_STREAM,
        SHUTDOWN_INPUT, SHUTDOWN_OUTPUT,
        GET_INPUT_STREAM, GET_OUTPUT_STREAM,
        TIMED_READ, STATE_GETTERS, SEND_URGENT_DATA
    }

    Iterable<Arguments> cells() {
        List<Arguments> cells = new ArrayList<>();
        for (SocketKind kind : kinds()) {
            for (State state : State.values()) {
                for (Operation operation : Operation.values()) {
                    cells.add(Arguments.of(kind, state, operation));
                }
            }
        }
        return cells;
    }

    @ParameterizedTest(name = "{0}: {2} when {1}")
    @MethodSource("cells")
    void cell(SocketKind kind, State state, Operation operation) throws Exception {
        Transcript expected = run(SocketContract.PLAIN, state, operation);
        Transcript actual = run(kind, state, operation);
        List<String> documented = documentedDifference(kind, state, operation, expected.lines());
        String wanted = documented != null ? String.join("\n", documented) : expected.toString();
        if (Boolean.getBoolean("extsock.contract.print")) {
            System.out.println("---- " + kind.name() + ": " + operation + " when " + state + "\n" + actual);
        }
        assertEquals(wanted, actual.toString(), kind.name() + " differs from java.net.Socket"
                + (documented != null ? " (as documented)" : "") + ": " + operation + " when " + state);
    }

    // ---- one cell ---------------------------------------------------------------------------

    private static final byte[] PEER_BYTES = {'a', 'b', 'c'};

    private static Transcript run(SocketKind kind, State state, Operation operation) throws Exception {
        Transcript t = new Transcript();
        if (state == State.UNCONNECTED) {
            try (Socket socket = kind.newSocket()) {
                t.record("getInputStream", socket::getInputStream);
                t.record("getOutputStream", socket::getOutputStream);
                perform(t, operation, socket, null, null, null, false);
                recordFlags(t, socket);
            }
            return t;
        }
        try (SocketPair pair = SocketPair.open(kind)) {
            Socket socket = pair.client;
            Socket peer = pair.accepted;
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            enter(t, state, pair, in);
            boolean peerReads = state == State.CONNECTED || state == State.INPUT_SHUT;
            perform(t, operation, socket, in, out, peer, peerReads);
            recordFlags(t, socket);
            if (state != State.CLOSED && state != State.CLOSED_WHILE_READING) {
                recordAddresses(t, pair);  // still there after any operation
            }
        }
        return t;
    }

    /** Moves the client into the state; what it observes on the way is part of the transcript. */
    private static void enter(Transcript t, State state, SocketPair pair, InputStream in) throws Exception {
        Socket socket = pair.client;
        Socket peer = pair.accepted;
        if (state == State.CLOSED_WHILE_READING) {
            Thread[] readingThread = new Thread[1];
            CountDownLatch reading = new CountDownLatch(1);
            CompletableFuture<Object> reader = CompletableFuture.supplyAsync(() -> {
                readingThread[0] = Thread.currentThread();
                reading.countDown();
                try {
                    return in.read();
                } catch (IOException e) {
                    return e;
                }
            });
            reading.await();
            ThreadStacks.awaitInside(readingThread[0], "", "read", false);  // in read(), where it blocks
            socket.close();
            Object outcome = reader.get(10, TimeUnit.SECONDS);
            assertInstanceOf(SocketException.class, outcome);
            t.note("the blocked read", Transcript.describe((Exception) outcome));
            return;
        }
        peer.getOutputStream().write(PEER_BYTES);
        awaitAvailable(in, PEER_BYTES.length);
        switch (state) {
            case CONNECTED:
                break;
            case INPUT_SHUT:
                socket.shutdownInput();
                break;
            case OUTPUT_SHUT:
                socket.shutdownOutput();
                break;
            case BOTH_SHUT:
                socket.shutdownInput();
                socket.shutdownOutput();
                break;
            case PEER_CLOSED:
                peer.close();
                break;
            case PEER_RESET:
                peer.setSoLinger(true, 0);
                peer.close();
                // A Socket's reset leaves in close(); an engine may send it a moment later. The
                // state is reached when the peer's TCP endpoint is gone (the reset is out).
                awaitTcpEndpointGone(pair.server.getLocalPort(), socket.getLocalPort());
                break;
            case END_OF_STREAM_SEEN:
                peer.close();
                t.record("read to the end", () -> new String(in.readAllBytes()));
                break;
            case CLOSED:
                socket.close();
                break;
            default:
                throw new IllegalArgumentException(state.toString());
        }
    }

    /** The peer's bytes have reached the client (a stream over an engine may take a moment). */
    private static void awaitAvailable(InputStream in, int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (in.available() < count) {
            assertTrue(System.nanoTime() < deadline, "the peer's bytes never arrived");
            Thread.sleep(1);  // a polling interval
        }
    }

    /**
     * Waits until the kernel holds no TCP endpoint with these local and remote ports (Linux's
     * /proc/net/tcp and tcp6; elsewhere there is nothing to wait on).
     */
    private static void awaitTcpEndpointGone(int localPort, int remotePort) throws Exception {
        String local = String.format(":%04X", localPort);
        String remote = String.format(":%04X", remotePort);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            boolean present = false;
            for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
                java.nio.file.Path path = java.nio.file.Path.of(table);
                if (!java.nio.file.Files.isReadable(path)) {
                    continue;
                }
                for (String line : java.nio.file.Files.readAllLines(path)) {
                    String[] fields = line.trim().split("\\s+");
                    if (fields.length > 3 && fields[1].endsWith(local) && fields[2].endsWith(remote)) {
                        present = true;
                    }
                }
            }
            if (!present) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "the peer's reset never went out");
            Thread.sleep(1);  // a polling interval
        }
    }

    private static void perform(Transcript t, Operation operation, Socket socket, InputStream in,
                                OutputStream out, Socket peer, boolean peerReads) {
        String name = operation.toString();
        switch (operation) {
            case READ:
                t.record(name, () -> in(in).read());
                break;
            case READ_ARRAY:
                t.record(name, () -> in(in).read(new byte[8]));
                break;
            case READ_RANGE:
                t.record(name, () -> in(in).read(new byte[8], 2, 5));
                t.record(name + " out of bounds", () -> in(in).read(new byte[8], 6, 5));
                t.record(name + " of nothing", () -> in(in).read(new byte[8], 3, 0));
                break;
            case READ_N_BYTES:
                t.record(name, () -> new String(in(in).readNBytes(PEER_BYTES.length)));
                break;
            case AVAILABLE:
                t.record(name, () -> in(in).available());
                break;
            case SKIP:
                t.record(name, () -> in(in).skip(2));
                break;
            case WRITE_INT:
                written(t, t.record(name, () -> {
                    out(out).write('x');
                    return "ok";
                }), peer, peerReads, 1);
                break;
            case WRITE_ARRAY:
                written(t, t.record(name, () -> {
                    out(out).write("xyz".getBytes());
                    return "ok";
                }), peer, peerReads, 3);
                break;
            case WRITE_RANGE:
                t.record(name + " out of bounds", () -> {
                    out(out).write(new byte[4], 3, 2);
                    return "ok";
                });
                t.record(name + " of nothing", () -> {
                    out(out).write(new byte[4], 1, 0);
                    return "ok";
                });
                written(t, t.record(name, () -> {
                    out(out).write("wxyz".getBytes(), 1, 2);
                    return "ok";
                }), peer, peerReads, 2);
                break;
            case FLUSH:
                t.record(name, () -> {
                    out(out).flush();
                    return "ok";
                });
                break;
            case CLOSE_INPUT_STREAM:
                t.record(name, () -> {
                    in(in).close();
                    return "ok";
                });
                t.record(name + " again", () -> {
                    in(in).close();
                    return "ok";
                });
                break;
            case CLOSE_OUTPUT_STREAM:
                t.record(name, () -> {
                    out(out).close();
                    return "ok";
                });
                break;
            case SHUTDOWN_INPUT:
                t.record(name, () -> {
                    socket.shutdownInput();
                    return "ok";
                });
                t.record("read after it", () -> in(in).read());
                break;
            case SHUTDOWN_OUTPUT:
                t.record(name, () -> {
                    socket.shutdownOutput();
                    return "ok";
                });
                if (peerReads) {
                    t.record("peer reads the end", () -> peer.getInputStream().read());
                }
                break;
            case GET_INPUT_STREAM:
                t.record(name, () -> socket.getInputStream() == in ? "the same stream" : "another stream");
                break;
            case GET_OUTPUT_STREAM:
                t.record(name, () -> socket.getOutputStream() == out ? "the same stream" : "another stream");
                break;
            case TIMED_READ:
                t.record("setSoTimeout", () -> {
                    socket.setSoTimeout(200);
                    return "ok";
                });
                t.record("getSoTimeout", socket::getSoTimeout);
                for (int i = 1; i <= PEER_BYTES.length + 1; i++) {
                    t.record(name + " " + i, () -> in(in).read());
                }
                break;
            case STATE_GETTERS:
                t.record("getInetAddress", socket::getInetAddress);
                t.record("getPort", () -> socket.getPort() == 0 ? 0 : "a port");
                t.record("getLocalAddress", socket::getLocalAddress);
                t.record("getLocalPort > 0", () -> socket.getLocalPort() > 0);
                t.record("getLocalPort", () -> socket.getLocalPort() == -1 ? -1 : "a port");
                t.record("getRemoteSocketAddress", () -> socket.getRemoteSocketAddress() == null ? null : "set");
                t.record("getLocalSocketAddress", () -> socket.getLocalSocketAddress() == null ? null
                        : ((InetSocketAddress) socket.getLocalSocketAddress()).getAddress());
                t.record("getSoTimeout", socket::getSoTimeout);
                t.record("getTcpNoDelay", socket::getTcpNoDelay);
                t.record("getSoLinger", socket::getSoLinger);
                t.record("getKeepAlive", socket::getKeepAlive);
                t.record("getChannel", socket::getChannel);
                t.record("toString", () -> socket.toString().replaceAll("[0-9]{2,}", "N"));
                break;
            case SEND_URGENT_DATA:
                t.record(name, () -> {
                    socket.sendUrgentData('U');
                    return "ok";
                });
                break;
            default:
                throw new IllegalArgumentException(operation.toString());
        }
    }

    private static InputStream in(InputStream in) throws SocketException {
        if (in == null) {
            throw new SocketException("(no stream: the socket was never connected)");
        }
        return in;
    }

    private static OutputStream out(OutputStream out) throws SocketException {
        if (out == null) {
            throw new SocketException("(no stream: the socket was never connected)");
        }
        return out;
    }

    /** After a write that succeeded, what a peer that still reads receives. */
    private static void written(Transcript t, Object outcome, Socket peer, boolean peerReads, int count) {
        if ("ok".equals(outcome) && peerReads) {
            t.record("peer reads", () -> new String(peer.getInputStream().readNBytes(count)));
        }
    }

    private static void recordFlags(Transcript t, Socket socket) {
        t.note("then", "connected " + socket.isConnected() + ", bound " + socket.isBound()
                + ", closed " + socket.isClosed() + ", input shut " + socket.isInputShutdown()
                + ", output shut " + socket.isOutputShutdown());
    }

    private static void recordAddresses(Transcript t, SocketPair pair) {
        Socket socket = pair.client;
        t.record("addresses", () -> socket.getInetAddress() + " port is the server's "
                + (socket.getPort() == pair.server.getLocalPort()) + ", local port is the peer's view "
                + (socket.getLocalPort() == pair.accepted.getPort()));
    }
}
