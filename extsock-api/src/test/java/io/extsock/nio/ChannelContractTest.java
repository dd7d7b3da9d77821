package io.extsock.nio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedSelectorProvider;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProtocolFamily;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.SelectorProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The channel contract: each scenario runs over the JDK's own provider, which shows what the
 * scenario expects is what the JDK does, and over extsock's, whose channels and selector must
 * do the same, down to the exceptions.
 */
@Timeout(60)
class ChannelContractTest {

    private static final long LONG_ENOUGH = TimeUnit.SECONDS.toMillis(20);

    @TempDir
    Path directory;

    static Stream<SelectorProvider> providers() {
        return Stream.of(SelectorProvider.provider(), ExtendedSelectorProvider.provider());
    }

    @ParameterizedTest
    @MethodSource("providers")
    void aBlockingConnectionCarriesBytesBothWaysWithScatterAndGather(SelectorProvider provider) throws Exception {
        try (ServerSocketChannel server = listening(provider);
             SocketChannel client = provider.openSocketChannel()) {
            assertTrue(client.connect(server.getLocalAddress()));
            try (SocketChannel accepted = server.accept()) {
                assertSame(provider, accepted.provider());
                assertTrue(client.isConnected() && accepted.isConnected());
                assertEquals(client.getLocalAddress(), accepted.getRemoteAddress());

                ByteBuffer[] gather = {ByteBuffer.wrap(new byte[] {1, 2}), ByteBuffer.wrap(new byte[] {3, 4, 5})};
                assertEquals(5, client.write(gather, 0, 2));
                ByteBuffer[] scatter = {ByteBuffer.allocate(3), ByteBuffer.allocate(2)};
                long read = 0;
                while (read < 5) {
                    read += accepted.read(scatter, 0, 2);
                }
                assertArrayEquals(new byte[] {1, 2, 3}, scatter[0].array());
                assertArrayEquals(new byte[] {4, 5}, scatter[1].array());

                accepted.write(ByteBuffer.wrap(new byte[] {9}));
                accepted.shutdownOutput();
                ByteBuffer reply = ByteBuffer.allocate(4);
                assertEquals(1, client.read(reply));
                assertEquals(-1, client.read(reply), "end of stream after the peer's shutdownOutput");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void aNonBlockingConnectAcceptAndReadGoThroughOneSelector(SelectorProvider provider) throws Exception {
        try (Selector selector = provider.openSelector();
             ServerSocketChannel server = listening(provider);
             SocketChannel client = provider.openSocketChannel()) {
            server.configureBlocking(false);
            SelectionKey acceptKey = server.register(selector, SelectionKey.OP_ACCEPT, "server");
            client.configureBlocking(false);
            boolean connected = client.connect(server.getLocalAddress());
            SelectionKey connectKey = client.register(selector, connected ? 0 : SelectionKey.OP_CONNECT, "client");
            assertEquals("client", connectKey.attachment());

            SocketChannel accepted = null;
            while (accepted == null || !client.isConnected()) {
                assertTrue(selector.select(LONG_ENOUGH) > 0 || selector.selectedKeys().isEmpty());
                for (SelectionKey key : selector.selectedKeys()) {
                    if (key == acceptKey) {
                        assertTrue(key.isAcceptable());
                        accepted = server.accept();
                    } else if (key == connectKey) {
                        assertTrue(key.isConnectable());
                        assertTrue(client.finishConnect());
                        key.interestOps(0);
                    }
                }
                selector.selectedKeys().clear();
            }
            try (SocketChannel peer = accepted) {
                peer.configureBlocking(false);
                SelectionKey readKey = peer.register(selector, SelectionKey.OP_READ);
                client.write(ByteBuffer.wrap("hello".getBytes()));
                assertEquals(1, selector.select(LONG_ENOUGH));
                assertEquals(Set.of(readKey), selector.selectedKeys());
                assertEquals(SelectionKey.OP_READ, readKey.readyOps());
                ByteBuffer in = ByteBuffer.allocate(16);
                assertEquals(5, peer.read(in));
                assertEquals(0, peer.read(in), "non-blocking: nothing more now");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void aPipeOfTheProviderSharesTheSelectorWithItsSocketChannels(SelectorProvider provider) throws Exception {
        Pipe pipe = provider.openPipe();
        try (Selector selector = provider.openSelector();
             Pipe.SourceChannel source = pipe.source();
             Pipe.SinkChannel sink = pipe.sink();
             ServerSocketChannel server = listening(provider)) {
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT);
            source.configureBlocking(false);
            SelectionKey sourceKey = source.register(selector, SelectionKey.OP_READ);

            sink.write(ByteBuffer.wrap(new byte[] {7}));

            assertEquals(1, selector.select(LONG_ENOUGH));
            assertEquals(Set.of(sourceKey), selector.selectedKeys());
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void aSelectionAddsToTheReadySetOfAKeyStillSelectedAndCountsOnlyChanges(SelectorProvider provider)
            throws Exception {
        try (Connected pair = Connected.open(provider); Selector selector = provider.openSelector()) {
            pair.client.configureBlocking(false);
            SelectionKey key = pair.client.register(selector, SelectionKey.OP_WRITE);
            assertEquals(1, selector.selectNow());
            assertEquals(0, selector.selectNow(), "still selected, its ready set unchanged: not counted");

            key.interestOps(SelectionKey.OP_WRITE | SelectionKey.OP_READ);
            pair.accepted.write(ByteBuffer.wrap(new byte[] {1}));
            assertEquals(1, awaitSelection(selector), "OP_READ joins the ready set");
            assertEquals(SelectionKey.OP_WRITE | SelectionKey.OP_READ, key.readyOps());
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void selectWithAnActionHandsEachReadyKeyOver(SelectorProvider provider) throws Exception {
        try (Connected pair = Connected.open(provider); Selector selector = provider.openSelector()) {
            pair.client.configureBlocking(false);
            SelectionKey key = pair.client.register(selector, SelectionKey.OP_WRITE);
            List<SelectionKey> handed = new ArrayList<>();

            assertEquals(1, selector.select(handed::add, LONG_ENOUGH));

            assertEquals(List.of(key), handed);
            assertTrue(selector.selectedKeys().isEmpty(), "the action variant leaves the selected set empty");
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void wakeupEndsASelectionInProgressAndTheNextOneIfNoneIs(SelectorProvider provider) throws Exception {
        try (Selector selector = provider.openSelector()) {
            selector.wakeup();
            assertEquals(0, selector.select(LONG_ENOUGH), "woken before it began: at once");

            CompletableFuture<Integer> selection = new CompletableFuture<>();
            Thread selecting = new Thread(() -> {
                try {
                    selection.complete(selector.select());
                } catch (Throwable e) {
                    selection.completeExceptionally(e);
                }
            });
            selecting.start();
            awaitBlocked(selecting);
            selector.wakeup();
            assertEquals(0, selection.get(LONG_ENOUGH, TimeUnit.MILLISECONDS));
            selecting.join();
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void aNegativeTimeoutIsRefused(SelectorProvider provider) throws Exception {
        try (Selector selector = provider.openSelector()) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> selector.select(-1));
            assertEquals("Negative timeout", refused.getMessage());
            assertThrows(IllegalArgumentException.class, () -> selector.select(key -> { }, -1));
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void anInterruptEndsASelectionAndStaysSet(SelectorProvider provider) throws Exception {
        try (Selector selector = provider.openSelector()) {
            CompletableFuture<Boolean> interruptedAfter = new CompletableFuture<>();
            Thread selecting = new Thread(() -> {
                try {
                    selector.select();
                    interruptedAfter.complete(Thread.currentThread().isInterrupted());
                } catch (Throwable e) {
                    interruptedAfter.completeExceptionally(e);
                }
            });
            selecting.start();
            awaitBlocked(selecting);
            selecting.interrupt();
            assertTrue(interruptedAfter.get(LONG_ENOUGH, TimeUnit.MILLISECONDS));
            assertTrue(selector.isOpen(), "an interrupt closes no selector");
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void aCancelledKeyLeavesAtTheNextSelectionAndThenTheChannelMayBlockAgain(SelectorProvider provider)
            throws Exception {
        try (Connected pair = Connected.open(provider); Selector selector = provider.openSelector()) {
            pair.client.configureBlocking(false);
            SelectionKey key = pair.client.register(selector, SelectionKey.OP_READ);
            key.cancel();

            assertFalse(key.isValid());
            assertThrows(CancelledKeyException.class, key::interestOps);
            assertTrue(selector.keys().contains(key), "until the next selection");
            assertTrue(pair.client.isRegistered(), "until the next selection");
            pair.client.configureBlocking(true);  // no valid key: allowed at once

            selector.selectNow();

            assertFalse(selector.keys().contains(key));
            assertFalse(pair.client.isRegistered());
            pair.accepted.write(ByteBuffer.wrap(new byte[] {3}));
            assertEquals(1, pair.client.read(ByteBuffer.allocate(1)), "blocking again, and working");
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void aChannelClosedWhileRegisteredHasItsKeyCancelled(SelectorProvider provider) throws Exception {
        try (Connected pair = Connected.open(provider); Selector selector = provider.openSelector()) {
            pair.client.configureBlocking(false);
            SelectionKey key = pair.client.register(selector, SelectionKey.OP_READ);

            pair.client.close();

            assertFalse(key.isValid());
            selector.selectNow();
            assertTrue(selector.keys().isEmpty());
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void aBlockingChannelCannotBeRegisteredAndASelectedSetCannotGrow(SelectorProvider provider) throws Exception {
        try (Connected pair = Connected.open(provider); Selector selector = provider.openSelector()) {
            assertThrows(IllegalBlockingModeException.class, () -> pair.client.register(selector, SelectionKey.OP_READ));
            pair.client.configureBlocking(false);
            SelectionKey key = pair.client.register(selector, SelectionKey.OP_WRITE);
            assertThrows(IllegalArgumentException.class, () -> key.interestOps(SelectionKey.OP_ACCEPT));
            assertThrows(UnsupportedOperationException.class, () -> selector.selectedKeys().add(key));
            assertThrows(UnsupportedOperationException.class, () -> selector.keys().add(key));
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void aClosedSelectorRefusesEverythingAndLetsItsChannelsGo(SelectorProvider provider) throws Exception {
        try (Connected pair = Connected.open(provider)) {
            Selector selector = provider.openSelector();
            pair.client.configureBlocking(false);
            SelectionKey key = pair.client.register(selector, SelectionKey.OP_READ);

            selector.close();
            selector.close();  // twice: nothing more

            assertFalse(key.isValid());
            assertFalse(pair.client.isRegistered());
            assertThrows(ClosedSelectorException.class, selector::selectNow);
            assertThrows(ClosedSelectorException.class, selector::keys);
            assertThrows(ClosedSelectorException.class, selector::selectedKeys);
            assertThrows(ClosedSelectorException.class, () -> pair.client.register(selector, SelectionKey.OP_READ));
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void anAsynchronousCloseEndsABlockedRead(SelectorProvider provider) throws Exception {
        try (Connected pair = Connected.open(provider)) {
            CompletableFuture<Throwable> ended = new CompletableFuture<>();
            Thread reading = new Thread(() -> ended.complete(assertThrows(IOException.class,
                    () -> pair.client.read(ByteBuffer.allocate(1)))));
            reading.start();
            awaitBlocked(reading);

            pair.client.close();

            assertInstanceOf(AsynchronousCloseException.class, ended.get(LONG_ENOUGH, TimeUnit.MILLISECONDS));
            reading.join();
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void anInterruptEndsABlockedReadAndClosesTheChannel(SelectorProvider provider) throws Exception {
        try (Connected pair = Connected.open(provider)) {
            CompletableFuture<Throwable> ended = new CompletableFuture<>();
            Thread reading = new Thread(() -> ended.complete(assertThrows(IOException.class,
                    () -> pair.client.read(ByteBuffer.allocate(1)))));
            reading.start();
            awaitBlocked(reading);

            reading.interrupt();

            assertInstanceOf(ClosedByInterruptException.class, ended.get(LONG_ENOUGH, TimeUnit.MILLISECONDS));
            reading.join();
            assertFalse(pair.client.isOpen());
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void optionsAndDescriptionsAreTheJdks(SelectorProvider provider) throws Exception {
        try (Connected pair = Connected.open(provider)) {
            Set<java.net.SocketOption<?>> expected = new java.util.HashSet<>(SocketChannel.open().supportedOptions());
            if (provider instanceof ExtendedSelectorProvider) {
                expected.addAll(io.extsock.IwarpOptions.ALL);  // and nothing else
            }
            assertEquals(expected, pair.client.supportedOptions());
            pair.client.setOption(StandardSocketOptions.TCP_NODELAY, true);
            assertTrue(pair.client.getOption(StandardSocketOptions.TCP_NODELAY));
            assertTrue(pair.client.socket().getTcpNoDelay(), "the socket adaptor sees the same connection");
            String description = pair.client.toString();
            assertTrue(description.startsWith("java.nio.channels.SocketChannel[connected local="), description);
        }
    }

    /** The socket adaptor says the channel's shutdowns and closes the channel itself, as the JDK's does. */
    @ParameterizedTest
    @MethodSource("providers")
    void theSocketAdaptorSaysTheShutdownsAndClosesTheChannel(SelectorProvider provider) throws Exception {
        try (Connected pair = Connected.open(provider)) {
            java.net.Socket adaptor = pair.client.socket();
            assertSame(adaptor, pair.client.socket());
            assertFalse(adaptor.isInputShutdown());
            pair.client.shutdownOutput();
            assertTrue(adaptor.isOutputShutdown());
            adaptor.shutdownInput();
            assertTrue(adaptor.isInputShutdown());
            assertEquals(-1, pair.client.read(ByteBuffer.allocate(1)));
            adaptor.close();
            assertFalse(pair.client.isOpen());
            assertTrue(adaptor.isClosed());
            assertThrows(java.nio.channels.ClosedChannelException.class, adaptor::shutdownOutput);
            java.net.SocketException closed = assertThrows(java.net.SocketException.class, adaptor::getTcpNoDelay);
            assertEquals("Socket is closed", closed.getMessage());
        }
    }

    /** The socket adaptor's streams carry the connection's bytes; closing one closes the channel. */
    @ParameterizedTest
    @MethodSource("providers")
    void theSocketAdaptorsStreamsCarryTheBytesAndCloseTheChannel(SelectorProvider provider) throws Exception {
        try (Connected pair = Connected.open(provider)) {
            pair.client.socket().getOutputStream().write(new byte[] {1, 2, 3});
            java.io.InputStream in = pair.accepted.socket().getInputStream();
            assertArrayEquals(new byte[] {1, 2, 3}, in.readNBytes(3));
            pair.client.shutdownOutput();
            assertEquals(-1, in.read());
            assertThrows(java.net.SocketException.class, () -> pair.client.socket().getOutputStream());
            in.close();
            assertFalse(pair.accepted.isOpen());
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void aChannelOfTheJdksDefaultProviderSharesTheSelector(SelectorProvider provider) throws Exception {
        try (Selector selector = provider.openSelector();
             Connected jdks = Connected.open(SelectorProvider.provider())) {
            jdks.client.configureBlocking(false);
            SelectionKey key = jdks.client.register(selector, SelectionKey.OP_READ);
            jdks.accepted.write(ByteBuffer.wrap(new byte[] {1}));
            assertEquals(1, selector.select(LONG_ENOUGH));
            assertTrue(key.isReadable());
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void channelsOpenedForAnInternetProtocolFamilyAreTheProvidersAndConnect(SelectorProvider provider)
            throws Exception {
        for (InetAddress loopback : List.of(InetAddress.getByName("127.0.0.1"), InetAddress.getByName("::1"))) {
            ProtocolFamily family = loopback instanceof Inet6Address ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET;
            try (ServerSocketChannel server = provider.openServerSocketChannel(family);
                 SocketChannel client = provider.openSocketChannel(family)) {
                assertSame(provider, server.provider());
                assertSame(provider, client.provider());
                server.bind(new InetSocketAddress(loopback, 0));
                assertTrue(client.connect(server.getLocalAddress()));
                try (SocketChannel accepted = server.accept()) {
                    assertSame(provider, accepted.provider());
                    client.write(ByteBuffer.wrap(new byte[] {6}));
                    assertEquals(1, accepted.read(ByteBuffer.allocate(1)));
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void unixDomainChannelsAreTheJdksOwnAndShareTheSelector(SelectorProvider provider) throws Exception {
        UnixDomainSocketAddress address = UnixDomainSocketAddress.of(directory.resolve("contract.socket"));
        try (Selector selector = provider.openSelector();
             ServerSocketChannel server = provider.openServerSocketChannel(StandardProtocolFamily.UNIX).bind(address);
             SocketChannel client = provider.openSocketChannel(StandardProtocolFamily.UNIX)) {
            assertSame(SelectorProvider.provider(), client.provider(), "the JDK's default provider's");
            assertTrue(client.connect(address));
            try (SocketChannel accepted = server.accept()) {
                accepted.configureBlocking(false);
                SelectionKey key = accepted.register(selector, SelectionKey.OP_READ);
                client.write(ByteBuffer.wrap(new byte[] {8}));
                assertEquals(1, selector.select(LONG_ENOUGH));
                assertTrue(key.isReadable());
            }
        }
    }

    /** Selects until a selection updates a key (a write's bytes may take a moment to be readable). */
    private static int awaitSelection(Selector selector) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LONG_ENOUGH);
        while (System.nanoTime() < deadline) {
            int updated = selector.select(LONG_ENOUGH);
            if (updated > 0) {
                return updated;
            }
        }
        return 0;
    }

    /** Waits until the thread blocks in the kernel or a selector: a native read, accept, poll or select. */
    private static void awaitBlocked(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            for (StackTraceElement frame : thread.getStackTrace()) {
                String method = frame.getMethodName();
                if (frame.isNativeMethod() && (method.startsWith("read") || method.startsWith("poll")
                        || method.equals("wait") || method.startsWith("accept"))) {
                    return;
                }
            }
            Thread.sleep(1);  // a polling interval while the thread gets there
        }
        throw new AssertionError("the thread never blocked: " + thread.getState());
    }

    private static ServerSocketChannel listening(SelectorProvider provider) throws IOException {
        ServerSocketChannel server = provider.openServerSocketChannel();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        assertSame(provider, server.provider());
        return server;
    }

    /** A connected pair of the provider's channels, both blocking. */
    private record Connected(ServerSocketChannel server, SocketChannel client, SocketChannel accepted)
            implements AutoCloseable {

        static Connected open(SelectorProvider provider) throws IOException {
            ServerSocketChannel server = listening(provider);
            SocketChannel client = provider.openSocketChannel();
            client.connect(server.getLocalAddress());
            SocketChannel accepted = server.accept();
            assertNotNull(accepted);
            return new Connected(server, client, accepted);
        }

        @Override
        public void close() throws IOException {
            client.close();
            accepted.close();
            server.close();
        }
    }
}
