package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedSelectorProvider;
import io.extsock.ExtendedServerSocketChannel;
import io.extsock.ExtendedSocketChannel;
import io.extsock.IwarpNegotiationException;
import io.extsock.IwarpOptions;
import io.extsock.core.ThreadProbe;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WriteRequest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.SelectorProvider;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Channels of extsock's provider in IWARP_MODE over loopback: the switch at connect and at the
 * accepted end's first use, the stream in blocking mode and through a selector (whose readiness
 * then comes from the engine, not the socket's descriptor), the verbs, and how a blocked read
 * ends.
 */
@Timeout(60)
class IwarpChannelTest {

    private static final long LONG_ENOUGH_SECONDS = 20;

    @Test
    void aConnectionSwitchedAtConnectCarriesTheStreamBothWaysAndTheVerbs() throws Exception {
        try (Pair pair = Pair.open()) {
            byte[] sent = randomBytes(300_000, 1);
            CompletableFuture<byte[]> received = CompletableFuture.supplyAsync(() -> readFully(pair.server, sent.length));
            pair.client.write(ByteBuffer.wrap(sent));
            assertArrayEquals(sent, received.get(LONG_ENOUGH_SECONDS, TimeUnit.SECONDS));
            assertTrue(pair.client.getOption(IwarpOptions.IWARP_MODE));
            assertTrue(pair.server.getOption(IwarpOptions.IWARP_MODE));

            ByteBuffer[] gather = {ByteBuffer.wrap(new byte[] {1, 2}), ByteBuffer.allocateDirect(3).put(new byte[] {3, 4, 5}).flip()};
            assertEquals(5, pair.server.write(gather, 0, 2));
            ByteBuffer direct = ByteBuffer.allocateDirect(5);
            while (direct.hasRemaining()) {
                pair.client.read(direct);
            }
            assertArrayEquals(new byte[] {1, 2, 3, 4, 5}, bytes(direct.flip()));

            MemoryRegion target = pair.server.iwarp().register(ByteBuffer.allocateDirect(4096),
                    EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
            MemoryRegion source = pair.client.iwarp().register(ByteBuffer.allocateDirect(4096), Set.of());
            source.buffer().put(0, (byte) 42);
            pair.client.iwarp().post(new WriteRequest().tag(1).gather(source.slice(0, 4096)).target(target.remote()));
            WorkCompletion done = pair.client.iwarp().completions().take(LONG_ENOUGH_SECONDS, TimeUnit.SECONDS);
            assertNotNull(done);
            assertEquals(CompletionStatus.SUCCESS, done.status());
            // The Write's completion says the source may be reused; the stream's next bytes, which
            // the peer processes after the Write, say it was placed.
            pair.client.write(ByteBuffer.wrap(new byte[] {7}));
            assertArrayEquals(new byte[] {7}, readFully(pair.server, 1));
            assertEquals(42, target.buffer().get(0));
        }
    }

    @Test
    void aSelectorMovesAMebibyteEachWayWithTheEngineReadingTheSockets() throws Exception {
        try (Pair pair = Pair.open(); Selector selector = ExtendedSelectorProvider.provider().openSelector()) {
            pair.client.configureBlocking(false);
            pair.server.configureBlocking(false);
            byte[] toServer = randomBytes(1 << 20, 2);
            byte[] toClient = randomBytes(1 << 20, 3);
            ByteBuffer clientOut = ByteBuffer.wrap(toServer);
            ByteBuffer serverOut = ByteBuffer.wrap(toClient);
            ByteBuffer clientIn = ByteBuffer.allocate(toClient.length);
            ByteBuffer serverIn = ByteBuffer.allocate(toServer.length);
            SelectionKey clientKey = pair.client.register(selector, SelectionKey.OP_READ | SelectionKey.OP_WRITE);
            SelectionKey serverKey = pair.server.register(selector, SelectionKey.OP_READ | SelectionKey.OP_WRITE);
            int wakeUpsForNothing = 0;
            while (clientIn.hasRemaining() || serverIn.hasRemaining()) {
                if (selector.select(TimeUnit.SECONDS.toMillis(LONG_ENOUGH_SECONDS)) == 0 && selector.selectedKeys().isEmpty()) {
                    wakeUpsForNothing++;
                    assertTrue(wakeUpsForNothing < 1000, "the selector returned with nothing ready, again and again");
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    ExtendedSocketChannel channel = (ExtendedSocketChannel) key.channel();
                    ByteBuffer out = key == clientKey ? clientOut : serverOut;
                    ByteBuffer in = key == clientKey ? clientIn : serverIn;
                    if (key.isWritable()) {
                        channel.write(out);
                        if (!out.hasRemaining()) {
                            key.interestOps(SelectionKey.OP_READ);
                        }
                    }
                    if (key.isReadable() && in.hasRemaining()) {
                        assertTrue(channel.read(in) >= 0, "end of stream before every byte came");
                    }
                }
                selector.selectedKeys().clear();
            }
            assertArrayEquals(toServer, serverIn.array());
            assertArrayEquals(toClient, clientIn.array());
            assertEquals(0, pair.client.read(ByteBuffer.allocate(1)), "non-blocking, nothing more: 0");
            assertTrue(serverKey.isValid());
        }
    }

    @Test
    void aShutdownOutputIsTheEndOfStreamAndASelectorSaysReadable() throws Exception {
        try (Pair pair = Pair.open(); Selector selector = ExtendedSelectorProvider.provider().openSelector()) {
            pair.server.configureBlocking(false);
            SelectionKey key = pair.server.register(selector, SelectionKey.OP_READ);
            pair.client.shutdownOutput();
            assertEquals(1, selector.select(TimeUnit.SECONDS.toMillis(LONG_ENOUGH_SECONDS)));
            assertTrue(key.isReadable());
            assertEquals(-1, pair.server.read(ByteBuffer.allocate(1)));
        }
    }

    @Test
    void anInterruptEndsABlockedReadAndClosesTheChannel() throws Exception {
        try (Pair pair = Pair.open()) {
            CompletableFuture<Throwable> ended = new CompletableFuture<>();
            Thread reading = new Thread(() -> ended.complete(assertThrows(IOException.class,
                    () -> pair.client.read(ByteBuffer.allocate(1)))));
            reading.start();
            ThreadProbe.awaitInside(reading, "io.extsock.internal.nio.IwarpChannelIo", "readWaiting");

            reading.interrupt();

            assertInstanceOf(ClosedByInterruptException.class, ended.get(LONG_ENOUGH_SECONDS, TimeUnit.SECONDS));
            reading.join();
            assertFalse(pair.client.isOpen());
        }
    }

    @Test
    void anAsynchronousCloseEndsABlockedRead() throws Exception {
        try (Pair pair = Pair.open()) {
            CompletableFuture<Throwable> ended = new CompletableFuture<>();
            Thread reading = new Thread(() -> ended.complete(assertThrows(IOException.class,
                    () -> pair.client.read(ByteBuffer.allocate(1)))));
            reading.start();
            ThreadProbe.awaitInside(reading, "io.extsock.internal.nio.IwarpChannelIo", "readWaiting");

            pair.client.close();

            assertInstanceOf(AsynchronousCloseException.class, ended.get(LONG_ENOUGH_SECONDS, TimeUnit.SECONDS));
            reading.join();
        }
    }

    @Test
    void aClientChannelWhosePeerIsPlainFallsBackAndItsSelectorWatchesTheNewConnection() throws Exception {
        try (ServerSocketChannel plain = SelectorProvider.provider().openServerSocketChannel();
             Selector selector = ExtendedSelectorProvider.provider().openSelector();
             ExtendedSocketChannel client = ExtendedSocketChannel.open()) {
            plain.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            CompletableFuture<SocketChannel> second = CompletableFuture.supplyAsync(() -> {
                try {
                    try (SocketChannel first = plain.accept()) {  // reads our MPA Request, greets, goes
                        first.write(ByteBuffer.wrap("220 plain greeting\r\n".getBytes()));
                    }
                    return plain.accept();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            client.setOption(IwarpOptions.IWARP_MODE, true);
            client.setOption(IwarpOptions.FALLBACK, true);
            client.configureBlocking(false);
            SelectionKey key = client.register(selector, SelectionKey.OP_CONNECT);
            client.connect(plain.getLocalAddress());
            while (!client.isConnected() || client.isConnectionPending()) {
                selector.select(TimeUnit.SECONDS.toMillis(LONG_ENOUGH_SECONDS));
                if (key.isConnectable() && client.finishConnect()) {
                    break;
                }
            }
            assertFalse(client.getOption(IwarpOptions.IWARP_MODE), "went on as plain TCP");
            assertTrue(client.iwarpFallbackCause().isPresent());
            key.interestOps(SelectionKey.OP_READ);
            selector.selectedKeys().clear();

            try (SocketChannel server = second.get(LONG_ENOUGH_SECONDS, TimeUnit.SECONDS)) {
                assertEquals(client.getLocalAddress(), server.getRemoteAddress(), "the reconnected one");
                server.write(ByteBuffer.wrap("data".getBytes()));
                assertEquals(1, selector.select(TimeUnit.SECONDS.toMillis(LONG_ENOUGH_SECONDS)),
                        "the new connection's descriptor is watched");
                ByteBuffer in = ByteBuffer.allocate(4);
                assertEquals(4, client.read(in));
                assertArrayEquals("data".getBytes(), in.array());
            }
        }
    }

    @Test
    void anAcceptedChannelWhosePeerIsPlainReadsWhatThePeerSentFirst() throws Exception {
        try (ExtendedServerSocketChannel listener = ExtendedServerSocketChannel.open();
             Selector selector = ExtendedSelectorProvider.provider().openSelector()) {
            listener.setOption(IwarpOptions.IWARP_MODE, true);
            listener.setOption(IwarpOptions.FALLBACK, true);
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel plainClient = SocketChannel.open(listener.getLocalAddress());
                 ExtendedSocketChannel accepted = listener.accept()) {
                accepted.configureBlocking(false);
                SelectionKey key = accepted.register(selector, SelectionKey.OP_READ);
                plainClient.write(ByteBuffer.wrap("hello".getBytes()));
                assertEquals(1, selector.select(TimeUnit.SECONDS.toMillis(LONG_ENOUGH_SECONDS)));

                ByteBuffer in = ByteBuffer.allocate(16);
                assertEquals(5, accepted.read(in), "the first use: the switch reads 'hello', falls back, returns it");
                assertTrue(accepted.iwarpFallbackCause().isPresent());
                assertFalse(accepted.getOption(IwarpOptions.IWARP_MODE));

                plainClient.write(ByteBuffer.wrap(" more".getBytes()));
                selector.selectedKeys().clear();
                assertEquals(1, selector.select(TimeUnit.SECONDS.toMillis(LONG_ENOUGH_SECONDS)));
                assertTrue(key.isReadable());
                while (in.position() < 10) {
                    assertTrue(accepted.read(in) >= 0);
                }
                assertArrayEquals("hello more".getBytes(), Arrays.copyOf(in.array(), 10));
            }
        }
    }

    /**
     * Netty's NIO channel asks the socket adaptor whether input or output is shut (and with
     * half-closure allowed, reads on until it says so): it must say what the channel did, while
     * the connection under it stays up for the other direction.
     */
    @Test
    void shutdownsShowOnTheSocketAdaptorAndTheOtherDirectionCarriesOn() throws Exception {
        try (Pair pair = Pair.open()) {
            pair.client.shutdownOutput();
            assertTrue(pair.client.socket().isOutputShutdown());
            assertFalse(pair.client.socket().isInputShutdown());
            assertEquals(-1, pair.server.read(ByteBuffer.allocate(1)));

            pair.server.shutdownInput();
            assertTrue(pair.server.socket().isInputShutdown());
            assertFalse(pair.server.socket().isOutputShutdown());
            pair.server.write(ByteBuffer.wrap(new byte[] {4, 5}));
            assertArrayEquals(new byte[] {4, 5}, readFully(pair.client, 2));

            pair.server.socket().shutdownOutput();  // through the adaptor: the stream's end, as the channel's
            assertTrue(pair.server.socket().isOutputShutdown());
            assertEquals(-1, pair.client.read(ByteBuffer.allocate(1)));
            assertTrue(pair.client.socket().isConnected());
            assertFalse(pair.client.socket().isClosed());
        }
    }

    /** The socket adaptor's streams, in blocking mode, carry the iWARP stream, not the TCP bytes under it. */
    @Test
    void theSocketAdaptorsStreamsCarryTheIwarpStream() throws Exception {
        try (Pair pair = Pair.open()) {
            byte[] sent = randomBytes(100_000, 11);
            pair.client.socket().getOutputStream().write(sent);
            assertArrayEquals(sent, pair.server.socket().getInputStream().readNBytes(sent.length));
            pair.server.socket().getOutputStream().write(7);
            assertEquals(7, pair.client.socket().getInputStream().read());
            pair.server.shutdownOutput();
            assertEquals(-1, pair.client.socket().getInputStream().read());
            assertTrue(pair.client.getOption(IwarpOptions.IWARP_MODE));
        }
    }

    @Test
    void zeroLengthReadsAndWritesDoNothing() throws Exception {
        try (Pair pair = Pair.open()) {
            assertEquals(0, pair.client.write(ByteBuffer.allocate(0)));
            assertEquals(0, pair.client.write(new ByteBuffer[] {ByteBuffer.allocate(0)}, 0, 1));
            assertEquals(0, pair.server.read(ByteBuffer.allocate(0)));
            pair.client.configureBlocking(false);
            assertEquals(0, pair.client.write(ByteBuffer.allocate(0)));
            assertEquals(0, pair.client.read(ByteBuffer.allocate(0)));
            pair.client.write(ByteBuffer.wrap(new byte[] {9}));
            assertArrayEquals(new byte[] {9}, readFully(pair.server, 1));
        }
    }

    /** A peer that writes and closes at once: a selecting reader gets every byte, then the end of stream. */
    @Test
    void theLastBytesBeforeThePeersCloseAllComeThroughASelectorBeforeTheEnd() throws Exception {
        try (Pair pair = Pair.open(); Selector selector = ExtendedSelectorProvider.provider().openSelector()) {
            byte[] sent = randomBytes(300_000, 9);
            pair.client.configureBlocking(false);
            SelectionKey key = pair.client.register(selector, SelectionKey.OP_READ);
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    pair.server.write(ByteBuffer.wrap(sent));
                    pair.server.close();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            ByteBuffer in = ByteBuffer.allocate(sent.length + 1);
            int last = 0;
            while (last >= 0) {
                selector.select(TimeUnit.SECONDS.toMillis(LONG_ENOUGH_SECONDS));
                assertTrue(selector.selectedKeys().remove(key), "nothing ready after " + in.position() + " octets");
                last = pair.client.read(in);
            }
            writer.get(LONG_ENOUGH_SECONDS, TimeUnit.SECONDS);
            assertEquals(sent.length, in.position());
            assertArrayEquals(sent, Arrays.copyOf(in.array(), sent.length));
            pair.client.close();
            assertFalse(key.isValid());
            assertEquals(0, selector.selectNow());
        }
    }

    /** A non-blocking connect in IWARP_MODE to a peer that answers as plain TCP fails its finishConnect, at once. */
    @Test
    void aPeerThatIsNotIwarpFailsTheFinishConnectAndClosesTheChannel() throws Exception {
        try (ServerSocketChannel plain = ServerSocketChannel.open();
             Selector selector = ExtendedSelectorProvider.provider().openSelector();
             ExtendedSocketChannel client = ExtendedSocketChannel.open()) {
            plain.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            client.setOption(IwarpOptions.IWARP_MODE, true);
            client.configureBlocking(false);
            client.connect(plain.getLocalAddress());
            try (SocketChannel peer = plain.accept()) {
                peer.write(ByteBuffer.wrap("HTTP/1.1 400 Bad Request\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
            }
            client.register(selector, SelectionKey.OP_CONNECT);
            selector.select(TimeUnit.SECONDS.toMillis(LONG_ENOUGH_SECONDS));
            IwarpNegotiationException failed = assertThrows(IwarpNegotiationException.class, client::finishConnect);
            assertTrue(failed.getMessage().contains("NOT_AN_IWARP_PEER"), failed.getMessage());
            assertFalse(client.isOpen());
        }
    }

    /** A client channel switched at its connect, and the server channel's connection switched at its first use. */
    private record Pair(ExtendedServerSocketChannel listener, ExtendedSocketChannel client,
                        ExtendedSocketChannel server) implements AutoCloseable {

        static Pair open() throws Exception {
            ExtendedServerSocketChannel listener = ExtendedServerSocketChannel.open();
            listener.setOption(IwarpOptions.IWARP_MODE, true);
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            CompletableFuture<ExtendedSocketChannel> accepted = CompletableFuture.supplyAsync(() -> {
                try {
                    ExtendedSocketChannel connection = listener.accept();
                    connection.iwarp();  // the first use: the responder's switch
                    return connection;
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            ExtendedSocketChannel client = ExtendedSocketChannel.open();
            client.setOption(IwarpOptions.IWARP_MODE, true);
            client.connect(listener.getLocalAddress());
            return new Pair(listener, client, accepted.get(LONG_ENOUGH_SECONDS, TimeUnit.SECONDS));
        }

        @Override
        public void close() throws IOException {
            client.close();
            server.close();
            listener.close();
        }
    }

    private static byte[] readFully(ExtendedSocketChannel channel, int length) {
        ByteBuffer in = ByteBuffer.allocate(length);
        try {
            while (in.hasRemaining()) {
                if (channel.read(in) < 0) {
                    throw new IOException("end of stream after " + in.position() + " octets");
                }
            }
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
        return in.array();
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.get(out);
        return out;
    }

    private static byte[] randomBytes(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
