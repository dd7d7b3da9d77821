package io.extsock.contract;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketOption;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The java.net.Socket contract, run over several socket kinds (Okio-style: one suite, many
 * implementations). Most tests are differential: a scenario records what it observes
 * (values, exception classes and messages) and the transcript of every kind must equal that
 * of plain {@code java.net.Socket} on the running JDK. Scenarios also assert the facts they
 * are about, so that a kind cannot pass by being wrong in the same way as the reference.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class SocketContract {

    /** Plain java.net sockets: the behaviour every kind must match. */
    public static final SocketKind PLAIN = new SocketKind() {
        @Override
        public String name() {
            return "java.net.Socket";
        }

        @Override
        public Socket newSocket() {
            return new Socket();
        }

        @Override
        public ServerSocket newServerSocket() throws IOException {
            return new ServerSocket();
        }

        @Override
        public String toString() {
            return name();
        }
    };

    /** The kinds under test; the reference itself may be among them as a self-check. */
    protected abstract List<SocketKind> kinds();

    /** A scenario: drives sockets of one kind and records what it sees. */
    @FunctionalInterface
    protected interface Scenario {
        void run(SocketKind kind, Transcript transcript) throws Exception;
    }

    protected static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    /** Runs the scenario on the reference and on the kind; the transcripts must be equal. */
    protected static void assertSameAsPlain(SocketKind kind, Scenario scenario) throws Exception {
        Transcript expected = new Transcript();
        scenario.run(PLAIN, expected);
        Transcript actual = new Transcript();
        scenario.run(kind, actual);
        if (Boolean.getBoolean("extsock.contract.print")) {
            System.out.println("---- " + kind.name() + "\n" + actual);
        }
        assertEquals(expected.toString(), actual.toString(),
                kind.name() + " differs from java.net.Socket");
    }

    // ---- connecting -----------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void connectWithAndWithoutTimeout(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            try (ServerSocket server = k.newBoundServerSocket()) {
                InetSocketAddress address = new InetSocketAddress(LOOPBACK, server.getLocalPort());
                for (int timeout : new int[] {0, 5_000}) {
                    try (Socket socket = k.newSocket()) {
                        t.record("connected before " + timeout, socket::isConnected);
                        t.record("connect " + timeout, () -> {
                            socket.connect(address, timeout);
                            return "ok";
                        });
                        t.record("connected after", socket::isConnected);
                        t.record("bound after", socket::isBound);
                        t.record("remote port is server's", () -> socket.getPort() == server.getLocalPort());
                        t.record("remote address", socket::getInetAddress);
                        t.record("remote socket address", () -> socket.getRemoteSocketAddress().equals(address));
                        t.record("local port ephemeral", () -> socket.getLocalPort() > 0);
                        t.record("local address", socket::getLocalAddress);
                        t.record("connect again", () -> {
                            socket.connect(address);
                            return "ok";
                        });
                        try (Socket peer = server.accept()) {
                            t.record("peer sees client port", () -> peer.getPort() == socket.getLocalPort());
                        }
                    }
                }
                t.record("negative timeout", () -> {
                    try (Socket socket = k.newSocket()) {
                        socket.connect(address, -1);
                        return "ok";
                    }
                });
                t.record("null address", () -> {
                    try (Socket socket = k.newSocket()) {
                        socket.connect(null);
                        return "ok";
                    }
                });
                t.record("unresolved address", () -> {
                    try (Socket socket = k.newSocket()) {
                        socket.connect(InetSocketAddress.createUnresolved("no-such-host.invalid", 80));
                        return "ok";
                    }
                });
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void connectionRefused(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            int closedPort;
            try (ServerSocket probe = k.newBoundServerSocket()) {
                closedPort = probe.getLocalPort();
            }
            for (int timeout : new int[] {0, 5_000}) {
                Socket socket = k.newSocket();
                Object outcome = t.record("connect " + timeout, () -> {
                    socket.connect(new InetSocketAddress(LOOPBACK, closedPort), timeout);
                    return "ok";
                });
                assertInstanceOf(ConnectException.class, outcome);
                t.record("connected", socket::isConnected);
                t.record("closed", socket::isClosed);
                t.record("getInputStream", socket::getInputStream);
                socket.close();
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void connectTimesOutWhenTheListenQueueIsFull(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            List<Socket> queued = new ArrayList<>();
            try (ServerSocket server = k.newServerSocket()) {
                server.bind(new InetSocketAddress(LOOPBACK, 0), 1);
                InetSocketAddress address = new InetSocketAddress(LOOPBACK, server.getLocalPort());
                // Never accepting: once the queue is full the kernel drops SYNs and connects hang.
                Object outcome = null;
                for (int i = 0; i < 16 && !(outcome instanceof SocketTimeoutException); i++) {
                    Socket socket = k.newSocket();
                    queued.add(socket);
                    try {
                        socket.connect(address, 300);
                    } catch (SocketTimeoutException e) {
                        outcome = e;
                        t.note("timed out", Transcript.describe(e));
                        t.record("connected", socket::isConnected);
                    }
                }
                assertInstanceOf(SocketTimeoutException.class, outcome);
            } finally {
                queued.forEach(SocketPair::closeQuietly);
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void bindAndEphemeralPorts(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            try (Socket socket = k.newSocket(); ServerSocket other = k.newBoundServerSocket()) {
                t.record("bound before", socket::isBound);
                t.record("local port before", socket::getLocalPort);
                t.record("local address before", socket::getLocalAddress);
                t.record("local socket address before", socket::getLocalSocketAddress);
                t.record("bind null", () -> {
                    socket.bind(null);
                    return "ok";
                });
                t.record("bound after", socket::isBound);
                t.record("ephemeral port", () -> socket.getLocalPort() > 0);
                t.record("local address any", () -> socket.getLocalAddress().isAnyLocalAddress());
                t.record("bind again", () -> {
                    socket.bind(new InetSocketAddress(LOOPBACK, 0));
                    return "ok";
                });
                t.record("connected", socket::isConnected);
                Object inUse = t.record("bind port in use", () -> {
                    try (Socket second = k.newSocket()) {
                        second.bind(new InetSocketAddress(LOOPBACK, other.getLocalPort()));
                        return "ok";
                    }
                });
                assertInstanceOf(BindException.class, inUse);
                t.record("bind unresolved", () -> {
                    try (Socket third = k.newSocket()) {
                        third.bind(InetSocketAddress.createUnresolved("no-such-host.invalid", 0));
                        return "ok";
                    }
                });
            }
            try (Socket socket = k.newSocket()) {
                socket.bind(new InetSocketAddress(LOOPBACK, 0));
                t.record("bound to loopback", socket::getLocalAddress);
                try (ServerSocket server = k.newBoundServerSocket()) {
                    int boundPort = socket.getLocalPort();
                    socket.connect(new InetSocketAddress(LOOPBACK, server.getLocalPort()));
                    t.record("connect keeps bound port", () -> socket.getLocalPort() == boundPort);
                }
            }
        });
    }

    // ---- reading and writing --------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void soTimeoutOnReadLeavesTheSocketUsable(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            try (SocketPair pair = SocketPair.open(k)) {
                pair.client.setSoTimeout(200);
                t.record("timeout", pair.client::getSoTimeout);
                InputStream in = pair.client.getInputStream();
                Object outcome = t.record("read", in::read);
                assertInstanceOf(SocketTimeoutException.class, outcome);
                t.record("closed after timeout", pair.client::isClosed);
                pair.accepted.getOutputStream().write(new byte[] {42, 43});
                t.record("read after timeout", in::read);
                t.record("read again", in::read);
                t.record("timeout again", () -> in.read(new byte[4]));
                pair.client.setSoTimeout(0);
                pair.accepted.getOutputStream().write(7);
                t.record("read without timeout", in::read);
                t.record("negative timeout", () -> {
                    pair.client.setSoTimeout(-1);
                    return "ok";
                });
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void shutdownAndHalfClose(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            try (SocketPair pair = SocketPair.open(k)) {
                Socket client = pair.client;
                Socket peer = pair.accepted;
                client.getOutputStream().write("request".getBytes());
                client.shutdownOutput();
                t.record("client output shutdown", client::isOutputShutdown);
                t.record("client input shutdown", client::isInputShutdown);
                t.record("peer reads request", () -> new String(peer.getInputStream().readAllBytes()));
                t.record("peer reads EOF again", () -> peer.getInputStream().read());
                peer.getOutputStream().write("response".getBytes());
                peer.close();
                t.record("client reads response after its half-close",
                        () -> new String(client.getInputStream().readAllBytes()));
                t.record("write after shutdownOutput", () -> {
                    client.getOutputStream().write(1);
                    return "ok";
                });
                t.record("getOutputStream after shutdownOutput", client::getOutputStream);
                t.record("shutdownOutput twice", () -> {
                    client.shutdownOutput();
                    return "ok";
                });
                t.record("shutdownInput", () -> {
                    client.shutdownInput();
                    return "ok";
                });
                t.record("input shutdown", client::isInputShutdown);
                t.record("getInputStream after shutdownInput", client::getInputStream);
                t.record("shutdownInput twice", () -> {
                    client.shutdownInput();
                    return "ok";
                });
                t.record("connected after shutdowns", client::isConnected);
            }
            try (SocketPair pair = SocketPair.open(k)) {
                InputStream in = pair.client.getInputStream();
                pair.accepted.getOutputStream().write(new byte[] {1, 2, 3});
                pair.client.shutdownInput();
                t.record("read after shutdownInput", in::read);
                t.record("available after shutdownInput", in::available);
            }
            try (Socket unconnected = k.newSocket()) {
                t.record("shutdownInput unconnected", () -> {
                    unconnected.shutdownInput();
                    return "ok";
                });
                t.record("shutdownOutput unconnected", () -> {
                    unconnected.shutdownOutput();
                    return "ok";
                });
                t.record("getInputStream unconnected", unconnected::getInputStream);
                t.record("getOutputStream unconnected", unconnected::getOutputStream);
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void closeFromAnotherThreadUnblocksAReader(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            try (SocketPair pair = SocketPair.open(k)) {
                InputStream in = pair.client.getInputStream();
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
                pair.client.close();
                Object outcome = reader.get(10, TimeUnit.SECONDS);
                assertInstanceOf(SocketException.class, outcome);
                t.note("blocked read", Transcript.describe((Exception) outcome));
                t.record("read after close", in::read);
                t.record("write after close", () -> {
                    pair.client.getOutputStream();
                    return "ok";
                });
                t.record("peer reads EOF", () -> pair.accepted.getInputStream().read());
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void shutdownInputFromAnotherThreadEndsABlockedRead(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            try (SocketPair pair = SocketPair.open(k)) {
                InputStream in = pair.client.getInputStream();
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
                pair.client.shutdownInput();
                t.record("the blocked read returns", () -> reader.get(10, TimeUnit.SECONDS));
                t.record("read after shutdownInput", in::read);
                t.record("the socket still writes", () -> {
                    pair.client.getOutputStream().write(7);
                    return pair.accepted.getInputStream().read();
                });
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void closingAStreamClosesTheSocket(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            try (SocketPair pair = SocketPair.open(k)) {
                InputStream in = pair.client.getInputStream();
                t.record("same input stream", () -> in == pair.client.getInputStream());
                in.close();
                t.record("closed by input stream", pair.client::isClosed);
                t.record("read closed stream", in::read);
                t.record("peer reads EOF", () -> pair.accepted.getInputStream().read());
            }
            try (SocketPair pair = SocketPair.open(k)) {
                OutputStream out = pair.client.getOutputStream();
                t.record("same output stream", () -> out == pair.client.getOutputStream());
                out.write(5);
                out.close();
                t.record("closed by output stream", pair.client::isClosed);
                t.record("write closed stream", () -> {
                    out.write(6);
                    return "ok";
                });
                InputStream peerIn = pair.accepted.getInputStream();
                t.record("peer reads byte", peerIn::read);
                t.record("peer reads EOF", peerIn::read);
            }
        });
    }

    /**
     * A stream obtained before {@code shutdownOutput} fails to write afterwards (TCP's EPIPE: the
     * JDK's "Broken pipe"), while the peer is still open; writing nothing and flushing still
     * succeed, and the peer reads what came before and then end of stream.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void writeAfterShutdownOutputFailsWhileThePeerIsOpen(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            try (SocketPair pair = SocketPair.open(k)) {
                OutputStream out = pair.client.getOutputStream();
                out.write("before".getBytes());
                pair.client.shutdownOutput();
                Object outcome = t.record("write(int) after shutdownOutput", () -> {
                    out.write(1);
                    return "ok";
                });
                assertInstanceOf(SocketException.class, outcome);
                t.record("write(byte[]) after shutdownOutput", () -> {
                    out.write(new byte[3]);
                    return "ok";
                });
                t.record("write(byte[], off, len) after shutdownOutput", () -> {
                    out.write(new byte[8], 2, 5);
                    return "ok";
                });
                t.record("write of nothing after shutdownOutput", () -> {
                    out.write(new byte[0]);
                    return "ok";
                });
                t.record("flush after shutdownOutput", () -> {
                    out.flush();
                    return "ok";
                });
                t.record("closed", pair.client::isClosed);
                t.record("peer reads what came before, then the end",
                        () -> new String(pair.accepted.getInputStream().readAllBytes()));
                pair.accepted.getOutputStream().write(9);
                t.record("the peer can still write to us", () -> pair.client.getInputStream().read());
            }
        });
    }

    /**
     * Once a read returned end of stream, reads on that stream keep returning -1, even after
     * the socket is closed (the JDK's NioSocketImpl: "emulate legacy behavior"); other calls see
     * the closed socket.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void endOfStreamStaysAfterClose(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            try (SocketPair pair = SocketPair.open(k)) {
                InputStream in = pair.client.getInputStream();
                pair.accepted.close();
                t.record("read at the end", in::read);
                pair.client.close();
                t.record("read() after close", in::read);
                t.record("read(byte[]) after close", () -> in.read(new byte[4]));
                t.record("read(byte[], off, len) after close", () -> in.read(new byte[4], 1, 2));
                t.record("read of nothing after close", () -> in.read(new byte[4], 0, 0));
                t.record("readNBytes after close", () -> in.readNBytes(3).length);
                t.record("skip after close", () -> in.skip(3));
                t.record("available after close", in::available);
            }
            try (SocketPair pair = SocketPair.open(k)) {
                InputStream in = pair.client.getInputStream();
                pair.client.shutdownInput();
                t.record("read after shutdownInput", in::read);
                pair.client.close();
                t.record("read after shutdownInput and close", in::read);
            }
            try (SocketPair pair = SocketPair.open(k)) {
                InputStream in = pair.client.getInputStream();
                pair.client.close();
                t.record("read after close without end of stream", in::read);
            }
        });
    }

    /**
     * A peer that closes with bytes of ours still unread ends our stream in order, as with
     * java.net: the JDK shuts its output down before closing (unless SO_LINGER is 0), so the
     * FIN goes out before the reset that unread data causes, and a read sees end of stream.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aPeerClosingWithUnreadInputEndsOurStreamInOrder(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            try (SocketPair pair = SocketPair.open(k)) {
                pair.client.getOutputStream().write(new byte[36]);
                t.record("peer reads 20 of 36", () -> pair.accepted.getInputStream().readNBytes(20).length);
                pair.accepted.close();
                t.record("client read after the peer closed", () -> pair.client.getInputStream().read());
                t.record("client read again", () -> pair.client.getInputStream().read());
            }
            try (SocketPair pair = SocketPair.open(k)) {
                pair.client.getOutputStream().write(new byte[36]);
                pair.accepted.getOutputStream().write("last".getBytes());
                t.record("peer reads 20 of 36", () -> pair.accepted.getInputStream().readNBytes(20).length);
                pair.accepted.close();
                t.record("client reads the peer's last bytes",
                        () -> new String(pair.client.getInputStream().readNBytes(4)));
                t.record("then the end", () -> pair.client.getInputStream().read());
            }
        });
    }

    /**
     * A write held up because the peer does not read fails when the peer then closes: the
     * peer's close leaves our bytes unread, which TCP answers with a reset. The write must not
     * return as if its bytes had gone out.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aWriteBlockedOnAPeerThatClosesFails(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            try (SocketPair pair = SocketPair.open(k)) {
                OutputStream out = pair.client.getOutputStream();
                // Far more than the peer's window and buffers. Allocated here, not in the writer:
                // in a busy JVM a 64 MiB array can take longer than the wait below, and a write
                // that starts after the peer's orderly close is accepted, as TCP's first one is.
                byte[] far = new byte[64 << 20];
                AtomicReference<Object> outcome = new AtomicReference<>();
                Thread writer = new Thread(() -> {
                    try {
                        out.write(far);
                        outcome.set("returned");
                    } catch (IOException e) {
                        outcome.set(e);
                    }
                }, "blocked-writer");
                writer.start();
                awaitInside(writer, "write");
                awaitArrival(pair.accepted.getInputStream());  // the write is under way: its first bytes reached the peer
                t.record("the write has returned though the peer does not read", () -> outcome.get() != null);
                pair.accepted.close();
                writer.join(TimeUnit.SECONDS.toMillis(20));
                t.record("the blocked write fails",
                        () -> outcome.get() instanceof SocketException ? "true" : String.valueOf(outcome.get()));
                t.record("a later write fails", () -> {
                    out.write(1);
                    out.write(1);
                    return "ok";
                });
            }
        });
    }

    /** Shutting down output after the peer closed in order still succeeds; then the peer's end is read. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void shutdownOutputAfterThePeerClosed(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            try (SocketPair pair = SocketPair.open(k)) {
                pair.accepted.getOutputStream().write("bye".getBytes());
                pair.accepted.close();
                InputStream in = pair.client.getInputStream();
                t.record("client reads the peer's last words", () -> new String(in.readNBytes(3)));
                t.record("then the end of stream", in::read);
                t.record("shutdownOutput after the peer closed", () -> {
                    pair.client.shutdownOutput();
                    return "ok";
                });
                t.record("output shut down", pair.client::isOutputShutdown);
            }
        });
    }

    /**
     * A write returns once its bytes are on their way; the peer reading them and closing at
     * once cannot make that write fail after the fact. Each round the client first reads a
     * reply (so it owes the peer an acknowledgement of its own, which may still be queued when
     * the peer closes), then writes the byte that makes the peer close.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aWriteThePeerReadSucceedsThoughThePeerClosesAtOnce(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            int rounds = 40;
            int failed = 0;
            StringBuilder failures = new StringBuilder();
            for (int round = 0; round < rounds; round++) {
                try (SocketPair pair = SocketPair.open(k)) {
                    Socket peer = pair.accepted;
                    Thread closer = new Thread(() -> {
                        try {
                            peer.getOutputStream().write(new byte[3000]);
                            if (peer.getInputStream().read() == 'Q') {
                                peer.close();
                            }
                        } catch (IOException e) {
                            // the client's side of the round reports what went wrong
                        }
                    });
                    closer.start();
                    pair.client.getInputStream().readNBytes(3000);
                    try {
                        pair.client.getOutputStream().write('Q');
                    } catch (IOException e) {
                        failed++;
                        failures.append(e).append('\n');
                    }
                    closer.join(TimeUnit.SECONDS.toMillis(30));
                    assertTrue(peer.isClosed(), "the peer never read the byte of round " + round);
                }
            }
            assertEquals(0, failed, "writes the peer had read failed:\n" + failures);
            int failedWrites = failed;
            t.record("writes that failed although the peer read them", () -> failedWrites);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void available(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            try (SocketPair pair = SocketPair.open(k)) {
                InputStream in = pair.client.getInputStream();
                t.record("available initially", in::available);
                pair.accepted.getOutputStream().write(new byte[100]);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (in.available() < 100 && System.nanoTime() < deadline) {
                    Thread.sleep(5);  // a polling interval
                }
                t.record("available after peer wrote 100", in::available);
                t.record("read 60", () -> in.readNBytes(60).length);
                t.record("available after reading 60", in::available);
                pair.client.close();
                t.record("available after close", in::available);
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void stateFlagsThroughTheLifecycle(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            Socket socket = k.newSocket();
            recordFlags(t, "new", socket);
            try (ServerSocket server = k.newBoundServerSocket()) {
                socket.connect(new InetSocketAddress(LOOPBACK, server.getLocalPort()));
                try (Socket peer = server.accept()) {
                    SocketPair.prepareBoth(k, socket, peer);
                    recordFlags(t, "connected", socket);
                    socket.shutdownInput();
                    recordFlags(t, "input shut down", socket);
                    socket.shutdownOutput();
                    recordFlags(t, "output shut down", socket);
                    socket.close();
                    recordFlags(t, "closed", socket);
                    t.record("remote address after close", socket::getInetAddress);
                    t.record("remote port kept", () -> socket.getPort() == server.getLocalPort());
                    t.record("local port kept", () -> socket.getLocalPort() == peer.getPort());
                    t.record("local address after close", socket::getLocalAddress);
                    t.record("close twice", () -> {
                        socket.close();
                        return "ok";
                    });
                }
            }
            Socket closedEarly = k.newSocket();
            closedEarly.close();
            recordFlags(t, "closed before use", closedEarly);
            t.record("connect closed", () -> {
                closedEarly.connect(new InetSocketAddress(LOOPBACK, 1));
                return "ok";
            });
            t.record("bind closed", () -> {
                closedEarly.bind(null);
                return "ok";
            });
        });
    }

    /** Waits until bytes arrived on {@code in}, at most 10 s. */
    private static void awaitArrival(InputStream in) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (in.available() == 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("nothing arrived in 10 s");
            }
            Thread.sleep(1);  // a polling interval
        }
    }

    /** Waits until the thread is inside the socket's output stream {@code method}. */
    private static void awaitInside(Thread thread, String method) throws InterruptedException {
        ThreadStacks.awaitInside(thread, "java.net.Socket", method, false);
    }

    private static void recordFlags(Transcript t, String when, Socket socket) {
        t.record(when + ": connected", socket::isConnected);
        t.record(when + ": bound", socket::isBound);
        t.record(when + ": closed", socket::isClosed);
        t.record(when + ": input shutdown", socket::isInputShutdown);
        t.record(when + ": output shutdown", socket::isOutputShutdown);
    }

    // ---- options --------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void legacyOptionSetters(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            Socket unconnected = k.newSocket();
            recordLegacyOptions(t, "unconnected", unconnected);
            unconnected.close();
            try (SocketPair pair = SocketPair.open(k)) {
                Socket s = pair.client;
                recordLegacyOptions(t, "defaults", s);
                s.setTcpNoDelay(true);
                s.setSoLinger(true, 7);
                s.setKeepAlive(true);
                s.setReceiveBufferSize(65536);
                s.setSendBufferSize(65536);
                s.setReuseAddress(true);
                s.setOOBInline(true);
                s.setTrafficClass(0x10);
                s.setSoTimeout(1234);
                recordLegacyOptions(t, "changed", s);
                s.setSoLinger(true, 100_000);
                t.record("linger capped", s::getSoLinger);
                s.setSoLinger(false, 0);
                t.record("linger off", s::getSoLinger);
                t.record("negative linger", () -> {
                    s.setSoLinger(true, -1);
                    return "ok";
                });
                t.record("traffic class 256", () -> {
                    s.setTrafficClass(256);
                    return "ok";
                });
                t.record("send buffer 0", () -> {
                    s.setSendBufferSize(0);
                    return "ok";
                });
                t.record("receive buffer -1", () -> {
                    s.setReceiveBufferSize(-1);
                    return "ok";
                });
                s.setPerformancePreferences(1, 2, 3);
                s.close();
                recordLegacyOptions(t, "closed", s);
            }
        });
    }

    private static void recordLegacyOptions(Transcript t, String when, Socket s) {
        t.record(when + ": TCP_NODELAY", s::getTcpNoDelay);
        t.record(when + ": SO_LINGER", s::getSoLinger);
        t.record(when + ": SO_KEEPALIVE", s::getKeepAlive);
        t.record(when + ": SO_RCVBUF", s::getReceiveBufferSize);
        t.record(when + ": SO_SNDBUF", s::getSendBufferSize);
        t.record(when + ": SO_REUSEADDR", s::getReuseAddress);
        t.record(when + ": OOBINLINE", s::getOOBInline);
        t.record(when + ": IP_TOS", s::getTrafficClass);
        t.record(when + ": SO_TIMEOUT", s::getSoTimeout);
        t.record(when + ": set TCP_NODELAY", () -> {
            s.setTcpNoDelay(s.getTcpNoDelay());
            return "ok";
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void typedOptions(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            try (SocketPair pair = SocketPair.open(k)) {
                Socket s = pair.client;
                List<SocketOption<?>> standard = List.of(
                        StandardSocketOptions.TCP_NODELAY, StandardSocketOptions.SO_KEEPALIVE,
                        StandardSocketOptions.SO_LINGER, StandardSocketOptions.SO_RCVBUF,
                        StandardSocketOptions.SO_SNDBUF, StandardSocketOptions.SO_REUSEADDR,
                        StandardSocketOptions.IP_TOS);
                for (SocketOption<?> option : standard) {
                    t.record("get " + option, () -> s.getOption(option));
                }
                t.record("set TCP_NODELAY", () -> s.setOption(StandardSocketOptions.TCP_NODELAY, true) == s);
                t.record("TCP_NODELAY", () -> s.getOption(StandardSocketOptions.TCP_NODELAY));
                t.record("set SO_LINGER", () -> s.setOption(StandardSocketOptions.SO_LINGER, 3) == s);
                t.record("SO_LINGER", () -> s.getOption(StandardSocketOptions.SO_LINGER));
                t.record("set SO_RCVBUF", () -> s.setOption(StandardSocketOptions.SO_RCVBUF, 32768) == s);
                t.record("SO_RCVBUF", () -> s.getOption(StandardSocketOptions.SO_RCVBUF));
                t.record("set IP_TOS", () -> s.setOption(StandardSocketOptions.IP_TOS, 0x08) == s);
                t.record("IP_TOS", () -> s.getOption(StandardSocketOptions.IP_TOS));
                t.record("unsupported option", () -> s.getOption(StandardSocketOptions.IP_MULTICAST_TTL));
                t.record("set unsupported option", () -> s.setOption(StandardSocketOptions.SO_BROADCAST, true));
                t.record("null option", () -> s.getOption(null));
                t.record("set null value", () -> s.setOption(StandardSocketOptions.TCP_NODELAY, null));
                Set<String> names = new HashSet<>();
                for (SocketOption<?> option : s.supportedOptions()) {
                    if (!option.getClass().getName().startsWith("io.extsock")) {
                        names.add(option.name());
                    }
                }
                t.note("supported options", new java.util.TreeSet<>(names));
                t.record("supported options immutable", () -> {
                    s.supportedOptions().clear();
                    return "ok";
                });
                s.close();
                t.record("get after close", () -> s.getOption(StandardSocketOptions.TCP_NODELAY));
                t.record("set after close", () -> s.setOption(StandardSocketOptions.TCP_NODELAY, false));
            }
        });
    }

    // ---- urgent data, channel, toString ---------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void sendUrgentData(SocketKind kind) throws Exception {
        if (!kind.supportsUrgentData()) {
            // The documented difference: refused, with a message that says why; nothing sent.
            try (SocketPair pair = SocketPair.open(kind)) {
                SocketException e = org.junit.jupiter.api.Assertions.assertThrows(SocketException.class,
                        () -> pair.client.sendUrgentData('U'));
                assertTrue(e.getMessage().contains("Urgent data not supported"), e.getMessage());
                pair.client.getOutputStream().write('a');
                assertEquals('a', pair.accepted.getInputStream().read());
            }
            return;
        }
        assertSameAsPlain(kind, (k, t) -> {
            for (boolean inline : new boolean[] {true, false}) {
                try (SocketPair pair = SocketPair.open(k)) {
                    pair.accepted.setOOBInline(inline);
                    OutputStream out = pair.client.getOutputStream();
                    out.write('a');
                    t.record("urgent (inline " + inline + ")", () -> {
                        pair.client.sendUrgentData('U');
                        return "ok";
                    });
                    out.write('b');
                    pair.client.shutdownOutput();
                    t.record("received (inline " + inline + ")",
                            () -> new String(pair.accepted.getInputStream().readAllBytes()));
                }
            }
            Socket unconnected = k.newSocket();
            t.record("urgent unconnected", () -> {
                unconnected.sendUrgentData(1);
                return "ok";
            });
            unconnected.close();
            t.record("urgent closed", () -> {
                unconnected.sendUrgentData(1);
                return "ok";
            });
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void getChannelAndToString(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            Socket unconnected = k.newSocket();
            t.record("channel unconnected", unconnected::getChannel);
            t.record("toString unconnected", unconnected::toString);
            unconnected.close();
            try (SocketPair pair = SocketPair.open(k)) {
                Socket s = pair.client;
                assertNull(s.getChannel());
                t.record("channel connected", s::getChannel);
                String expected = "Socket[addr=" + s.getInetAddress() + ",port=" + s.getPort()
                        + ",localport=" + s.getLocalPort() + "]";
                t.record("toString connected", () -> s.toString().equals(expected) ? "as Socket" : s.toString());
                String serverExpected = "ServerSocket[addr=" + pair.server.getInetAddress()
                        + ",localport=" + pair.server.getLocalPort() + "]";
                t.record("server toString", () -> pair.server.toString().equals(serverExpected)
                        ? "as ServerSocket" : pair.server.toString());
                t.record("server channel", pair.server::getChannel);
                s.close();
                t.record("toString closed", () -> s.toString().equals(expected) ? "as Socket" : s.toString());
            }
        });
    }

    // ---- interrupts -----------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aPendingInterruptDoesNotDisturbIo(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            try (SocketPair pair = SocketPair.open(k)) {
                pair.accepted.getOutputStream().write(9);
                Thread.currentThread().interrupt();
                try {
                    t.record("write while interrupted", () -> {
                        pair.client.getOutputStream().write(1);
                        return "ok";
                    });
                    t.record("read while interrupted", () -> pair.client.getInputStream().read());
                    t.record("still interrupted", () -> Thread.currentThread().isInterrupted());
                    t.record("open", () -> !pair.client.isClosed());
                } finally {
                    Thread.interrupted();
                }
                t.record("peer reads", () -> pair.accepted.getInputStream().read());
            }
        });
    }

    // ---- server sockets -------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void serverSocketContract(SocketKind kind) throws Exception {
        assertSameAsPlain(kind, (k, t) -> {
            ServerSocket server = k.newServerSocket();
            t.record("bound before", server::isBound);
            t.record("local port before", server::getLocalPort);
            t.record("toString before", server::toString);
            t.record("accept unbound", server::accept);
            t.record("reuse address default", server::getReuseAddress);
            server.setReceiveBufferSize(65536);
            t.record("receive buffer", server::getReceiveBufferSize);
            server.setOption(StandardSocketOptions.IP_TOS, 0x20);
            t.record("IP_TOS", () -> server.getOption(StandardSocketOptions.IP_TOS));
            server.bind(new InetSocketAddress(LOOPBACK, 0), 5);
            t.record("bound", server::isBound);
            t.record("address", server::getInetAddress);
            t.record("port ephemeral", () -> server.getLocalPort() > 0);
            t.record("bind again", () -> {
                server.bind(new InetSocketAddress(LOOPBACK, 0));
                return "ok";
            });
            server.setSoTimeout(200);
            t.record("so timeout", server::getSoTimeout);
            Object timedOut = t.record("accept times out", server::accept);
            assertInstanceOf(SocketTimeoutException.class, timedOut);
            server.setSoTimeout(0);
            try (Socket client = k.newSocket()) {
                client.connect(new InetSocketAddress(LOOPBACK, server.getLocalPort()));
                try (Socket accepted = server.accept()) {
                    t.record("accepted connected", accepted::isConnected);
                    t.record("accepted bound", accepted::isBound);
                    t.record("accepted local port", () -> accepted.getLocalPort() == server.getLocalPort());
                    t.record("accepted remote port", () -> accepted.getPort() == client.getLocalPort());
                    t.record("accepted traffic class", accepted::getTrafficClass);
                    t.record("accepted timeout", accepted::getSoTimeout);
                }
            }
            try (ServerSocket busy = k.newServerSocket()) {
                t.record("bind in use", () -> {
                    busy.bind(new InetSocketAddress(LOOPBACK, server.getLocalPort()));
                    return "ok";
                });
                t.record("closed after failed bind", busy::isClosed);
            }
            Thread[] accepting = new Thread[1];
            CountDownLatch started = new CountDownLatch(1);
            CompletableFuture<Object> acceptor = CompletableFuture.supplyAsync(() -> {
                accepting[0] = Thread.currentThread();
                started.countDown();
                try {
                    return server.accept();
                } catch (IOException e) {
                    return e;
                }
            });
            started.await();
            ThreadStacks.awaitInside(accepting[0], "", "accept", false);  // in accept(), where it blocks
            server.close();
            Object outcome = acceptor.get(10, TimeUnit.SECONDS);
            assertInstanceOf(SocketException.class, outcome);
            t.note("accept unblocked by close", Transcript.describe((Exception) outcome));
            t.record("closed", server::isClosed);
            t.record("bound after close", server::isBound);
            t.record("accept after close", server::accept);
            t.record("timeout after close", server::getSoTimeout);
            t.record("close twice", () -> {
                server.close();
                return "ok";
            });
        });
    }

    // ---- volume ---------------------------------------------------------------------------

    /** 256 MiB in writes of varied sizes, compared by SHA-256 on both ends. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void byteExactTransferOf256MiB(SocketKind kind) throws Exception {
        long total = 256L << 20;
        try (SocketPair pair = SocketPair.open(kind)) {
            ExecutorService executor = Executors.newSingleThreadExecutor();
            try {
                Future<byte[]> sent = executor.submit(() -> {
                    MessageDigest digest = MessageDigest.getInstance("SHA-256");
                    SplittableRandom random = new SplittableRandom(2024);
                    byte[] chunk = new byte[1 << 20];
                    OutputStream out = pair.client.getOutputStream();
                    for (long left = total; left > 0; ) {
                        int size = (int) Math.min(left, 1 + random.nextInt(chunk.length));
                        for (int i = 0; i < size; i += 8) {
                            long word = random.nextLong();
                            for (int j = 0; j < 8 && i + j < size; j++) {
                                chunk[i + j] = (byte) (word >>> (8 * j));
                            }
                        }
                        out.write(chunk, 0, size);
                        digest.update(chunk, 0, size);
                        left -= size;
                    }
                    pair.client.shutdownOutput();
                    return digest.digest();
                });
                MessageDigest digest = MessageDigest.getInstance("SHA-256");
                byte[] buffer = new byte[64 * 1024 + 17];
                InputStream in = pair.accepted.getInputStream();
                long received = 0;
                for (int n; (n = in.read(buffer)) != -1; ) {
                    digest.update(buffer, 0, n);
                    received += n;
                }
                assertEquals(total, received);
                assertArrayEquals(sent.get(60, TimeUnit.SECONDS), digest.digest());
            } finally {
                executor.shutdownNow();
            }
        }
    }

    /** 200 clients at once through one server socket, each echoing its own pattern. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void twoHundredConcurrentConnections(SocketKind kind) throws Exception {
        int connections = 200;
        try (ServerSocket server = kind.newServerSocket()) {
            server.bind(new InetSocketAddress(LOOPBACK, 0), connections);
            ExecutorService handlers = Executors.newCachedThreadPool();
            AtomicReference<Throwable> serverFailure = new AtomicReference<>();
            Thread acceptor = new Thread(() -> {
                try {
                    for (int i = 0; i < connections; i++) {
                        Socket accepted = server.accept();
                        handlers.execute(() -> echo(kind, accepted, serverFailure));
                    }
                } catch (IOException e) {
                    serverFailure.compareAndSet(null, e);
                }
            }, "acceptor");
            acceptor.start();
            ExecutorService clients = Executors.newFixedThreadPool(connections);
            try {
                List<Future<Boolean>> results = new ArrayList<>();
                CountDownLatch allConnected = new CountDownLatch(connections);
                for (int i = 0; i < connections; i++) {
                    int id = i;
                    results.add(clients.submit(() -> {
                        try (Socket socket = kind.newSocket()) {
                            socket.connect(new InetSocketAddress(LOOPBACK, server.getLocalPort()), 30_000);
                            kind.prepareConnected(socket, false);
                            allConnected.countDown();
                            allConnected.await(60, TimeUnit.SECONDS);  // all 200 open at once
                            byte[] message = new byte[4096 + id];
                            new SplittableRandom(id).nextBytes(message);
                            socket.getOutputStream().write(message);
                            socket.shutdownOutput();
                            byte[] echoed = socket.getInputStream().readAllBytes();
                            return java.util.Arrays.equals(message, echoed);
                        }
                    }));
                }
                for (Future<Boolean> result : results) {
                    assertTrue(result.get(120, TimeUnit.SECONDS), "echo mismatch");
                }
                acceptor.join(10_000);
                assertNull(serverFailure.get(), () -> "server failed: " + serverFailure.get());
            } finally {
                clients.shutdownNow();
                handlers.shutdownNow();
            }
        }
    }

    private static void echo(SocketKind kind, Socket socket, AtomicReference<Throwable> failure) {
        try (socket) {
            kind.prepareConnected(socket, true);
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) != -1; ) {
                out.write(buffer, 0, n);
            }
            socket.shutdownOutput();
        } catch (IOException e) {
            failure.compareAndSet(null, e);
        }
    }
}
