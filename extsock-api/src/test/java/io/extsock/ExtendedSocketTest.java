package io.extsock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What is particular to ExtendedSocket and ExtendedServerSocket beyond the Socket contract. */
@Timeout(60)
class ExtendedSocketTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    /**
     * ExtendedSocket forwards every call to a JDK Socket on our SocketImpl; a public Socket
     * method it did not override would act on an unused implementation instead. This guards
     * against a JDK that adds one.
     */
    @Test
    void overridesEveryPublicInstanceMethodOfSocket() {
        List<String> missing = new ArrayList<>();
        for (Method method : Socket.class.getMethods()) {
            int modifiers = method.getModifiers();
            if (method.getDeclaringClass() == Object.class && !method.getName().equals("toString")
                    || Modifier.isStatic(modifiers) || Modifier.isFinal(modifiers)) {
                continue;
            }
            try {
                Method own = ExtendedSocket.class.getMethod(method.getName(), method.getParameterTypes());
                if (own.getDeclaringClass() != ExtendedSocket.class) {
                    missing.add(method.toString());
                }
            } catch (NoSuchMethodException e) {
                missing.add(method.toString());
            }
        }
        assertEquals(List.of(), missing);
    }

    @Test
    void everyConnectingConstructorConnects() throws IOException {
        try (ServerSocket server = new ExtendedServerSocket(0, 50, LOOPBACK)) {
            int port = server.getLocalPort();
            List<Socket> sockets = List.of(
                    new ExtendedSocket("127.0.0.1", port),
                    new ExtendedSocket(LOOPBACK, port),
                    new ExtendedSocket("127.0.0.1", port, LOOPBACK, 0),
                    new ExtendedSocket(LOOPBACK, port, LOOPBACK, 0),
                    deprecatedStreamConstructor(port));
            for (Socket socket : sockets) {
                try (socket; Socket accepted = server.accept()) {
                    assertTrue(socket.isConnected());
                    assertEquals(port, socket.getPort());
                    assertEquals(socket.getLocalPort(), accepted.getPort());
                    socket.getOutputStream().write(77);
                    assertEquals(77, accepted.getInputStream().read());
                }
            }
        }
    }

    @SuppressWarnings("deprecation")
    private static Socket deprecatedStreamConstructor(int port) throws IOException {
        return new ExtendedSocket(LOOPBACK, port, true);
    }

    @Test
    @SuppressWarnings("deprecation")
    void datagramConstructorsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ExtendedSocket("127.0.0.1", 9, false));
        assertTrue(e.getMessage().contains("datagram"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ExtendedSocket(LOOPBACK, 9, false));
    }

    @Test
    void constructorFailuresMatchSocket() throws IOException {
        int closedPort;
        try (ServerSocket probe = new ServerSocket(0, 1, LOOPBACK)) {
            closedPort = probe.getLocalPort();
        }
        ConnectException plain = assertThrows(ConnectException.class, () -> new Socket(LOOPBACK, closedPort));
        ConnectException ours = assertThrows(ConnectException.class, () -> new ExtendedSocket(LOOPBACK, closedPort));
        assertEquals(plain.getMessage(), ours.getMessage());
        assertThrows(NullPointerException.class, () -> new ExtendedSocket((InetAddress) null, closedPort));
        assertThrows(IllegalArgumentException.class, () -> new ExtendedSocket(LOOPBACK, 70_000));
        IllegalArgumentException range = assertThrows(IllegalArgumentException.class,
                () -> new ExtendedServerSocket(70_000));
        IllegalArgumentException plainRange = assertThrows(IllegalArgumentException.class,
                () -> new ServerSocket(70_000));
        assertEquals(plainRange.getMessage(), range.getMessage());
    }

    @Test
    void proxies() throws IOException {
        try (ServerSocket server = new ServerSocket(0, 50, LOOPBACK);
             Socket direct = new ExtendedSocket(Proxy.NO_PROXY)) {
            direct.connect(server.getLocalSocketAddress());
            assertTrue(direct.isConnected());
        }
        assertEquals("Invalid Proxy",
                assertThrows(IllegalArgumentException.class, () -> new ExtendedSocket((Proxy) null)).getMessage());
        Proxy socks = new Proxy(Proxy.Type.SOCKS, new InetSocketAddress(LOOPBACK, 1080));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ExtendedSocket(socks));
        assertTrue(e.getMessage().contains("SOCKS proxies are not supported"), e.getMessage());
    }

    @Test
    void acceptReturnsExtendedSocketsAndMixesWithPlainSockets() throws IOException {
        try (ExtendedServerSocket server = new ExtendedServerSocket(0, 50, LOOPBACK);
             Socket plainClient = new Socket(LOOPBACK, server.getLocalPort());
             ExtendedSocket accepted = server.accept()) {
            plainClient.getOutputStream().write(1);
            assertEquals(1, accepted.getInputStream().read());
            accepted.getOutputStream().write(2);
            assertEquals(2, plainClient.getInputStream().read());
        }
        try (ServerSocket plainServer = new ServerSocket(0, 50, LOOPBACK);
             Socket client = new ExtendedSocket(LOOPBACK, plainServer.getLocalPort());
             Socket accepted = plainServer.accept()) {
            client.getOutputStream().write(3);
            assertEquals(3, accepted.getInputStream().read());
        }
    }

    @Test
    void iwarpModeIsAnOptionThatNeedsAnEngine() throws IOException {
        try (ExtendedServerSocket server = new ExtendedServerSocket(0, 50, LOOPBACK);
             ExtendedSocket client = new ExtendedSocket(LOOPBACK, server.getLocalPort());
             ExtendedSocket accepted = server.accept()) {
            assertTrue(client.supportedOptions().contains(IwarpOptions.IWARP_MODE));
            assertTrue(server.supportedOptions().contains(IwarpOptions.IWARP_MODE));
            assertFalse(client.getOption(IwarpOptions.IWARP_MODE));
            assertFalse(server.getOption(IwarpOptions.IWARP_MODE));

            IwarpUnavailableException e = assertThrows(IwarpUnavailableException.class,
                    () -> client.setOption(IwarpOptions.IWARP_MODE, true));
            assertTrue(e.getMessage().startsWith("iWARP engine is not available"), e.getMessage());
            assertThrows(IwarpUnavailableException.class, () -> server.setOption(IwarpOptions.IWARP_MODE, true));
            client.setOption(IwarpOptions.IWARP_MODE, false);

            // Nothing was switched: the connection carries on as plain TCP.
            assertFalse(client.getOption(IwarpOptions.IWARP_MODE));
            client.getOutputStream().write(11);
            assertEquals(11, accepted.getInputStream().read());
        }
        try (ExtendedSocket unconnected = new ExtendedSocket()) {
            assertThrows(IwarpUnavailableException.class,
                    () -> unconnected.setOption(IwarpOptions.IWARP_MODE, true));
            assertFalse(unconnected.isClosed());
        }
    }

    @Test
    void socketFactoryMakesExtendedSocketsWithItsOptions() throws IOException {
        try (ServerSocket server = ExtendedServerSocketFactory.getDefault().createServerSocket(0, 50, LOOPBACK)) {
            assertInstanceOf(ExtendedServerSocket.class, server);
            int port = server.getLocalPort();
            var factory = new ExtendedSocketFactory(
                    java.util.Map.of(java.net.StandardSocketOptions.TCP_NODELAY, true));
            List<Socket> sockets = List.of(
                    factory.createSocket("127.0.0.1", port),
                    factory.createSocket(LOOPBACK, port),
                    factory.createSocket("127.0.0.1", port, LOOPBACK, 0),
                    factory.createSocket(LOOPBACK, port, LOOPBACK, 0));
            for (Socket socket : sockets) {
                try (socket; Socket accepted = server.accept()) {
                    assertInstanceOf(ExtendedSocket.class, socket);
                    assertInstanceOf(ExtendedSocket.class, accepted);
                    assertTrue(socket.getTcpNoDelay());
                    socket.getOutputStream().write(5);
                    assertEquals(5, accepted.getInputStream().read());
                }
            }
            try (Socket unconnected = factory.createSocket()) {
                assertInstanceOf(ExtendedSocket.class, unconnected);
                assertTrue(unconnected.getTcpNoDelay());
                assertFalse(unconnected.isConnected());
            }
            var iwarpFactory = new ExtendedSocketFactory(java.util.Map.of(IwarpOptions.IWARP_MODE, true));
            assertThrows(IwarpUnavailableException.class, () -> iwarpFactory.createSocket(LOOPBACK, port));
        }
    }

    /**
     * The one behaviour that differs by design (see ExtendedSocket's class comment): an
     * interrupt delivered to a platform thread blocked in read closes an ExtendedSocket, as it
     * would a SocketChannel; a plain Socket keeps blocking.
     */
    @Test
    void anInterruptWhileBlockedClosesAnExtendedSocketButNotASocket() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, LOOPBACK)) {
            try (Socket plain = new Socket(LOOPBACK, server.getLocalPort());
                 Socket peer = server.accept()) {
                BlockedReader reader = BlockedReader.start(plain);
                reader.thread.interrupt();
                assertFalse(reader.result.isDone(), "a plain Socket keeps blocking when interrupted");
                peer.getOutputStream().write(8);
                // The read that was interrupted inside read() returns the byte: the interrupt did not end it.
                assertEquals(8, reader.result.get(10, TimeUnit.SECONDS));
            }
            try (Socket extended = new ExtendedSocket(LOOPBACK, server.getLocalPort());
                 Socket peer = server.accept()) {
                BlockedReader reader = BlockedReader.start(extended);
                reader.thread.interrupt();
                Object outcome = reader.result.get(10, TimeUnit.SECONDS);
                SocketException e = assertInstanceOf(SocketException.class, outcome);
                assertEquals("Closed by interrupt", e.getMessage());
                assertEquals(-1, peer.getInputStream().read(), "the connection was closed");
            }
        }
    }

    private static boolean blockedInNativeRead(Thread thread) {
        for (StackTraceElement frame : thread.getStackTrace()) {
            if (frame.isNativeMethod() && (frame.getMethodName().startsWith("read")
                    || frame.getMethodName().startsWith("poll") || frame.getMethodName().equals("wait"))) {
                return true;
            }
        }
        return false;
    }

    /** A thread blocked in read() on a socket, and what the read ends with. */
    private static final class BlockedReader {
        final CompletableFuture<Object> result = new CompletableFuture<>();
        Thread thread;

        static BlockedReader start(Socket socket) throws InterruptedException {
            BlockedReader reader = new BlockedReader();
            CountDownLatch started = new CountDownLatch(1);
            reader.thread = new Thread(() -> {
                started.countDown();
                try {
                    reader.result.complete(socket.getInputStream().read());
                } catch (IOException e) {
                    reader.result.complete(e);
                }
            });
            reader.thread.start();
            started.await();
            // Blocked in the kernel, not merely inside read(): an interrupt that came before the
            // blocking call began is one the socket leaves alone (it was already set), and the
            // read would then block for good.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!blockedInNativeRead(reader.thread)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the reader never blocked: " + reader.thread.getState());
                }
                Thread.sleep(1);  // a polling interval while the reader gets there
            }
            return reader;
        }
    }
}
