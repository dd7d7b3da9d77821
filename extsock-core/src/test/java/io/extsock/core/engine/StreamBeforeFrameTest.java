package io.extsock.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The stream octets that may precede the peer's MPA frame ({@link StreamBeforeFrame}): none on
 * a connection switched at connect or accept; after a later switch, what TCP could have held for
 * a reader that read nothing, which is more than the 1 MiB this used to be on Linux loopback.
 */
@Timeout(60)
class StreamBeforeFrameTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @Test
    void noneWithoutAnEarlierStream() throws Exception {
        try (ChannelPair pair = new ChannelPair()) {
            assertEquals(0, StreamBeforeFrame.maxOctets(pair.accepted, false));
        }
    }

    @Test
    void afterALaterSwitchTwiceTheBuffers() throws Exception {
        try (ChannelPair pair = new ChannelPair()) {
            int buffers = pair.accepted.getOption(java.net.StandardSocketOptions.SO_RCVBUF)
                    + pair.accepted.getOption(java.net.StandardSocketOptions.SO_SNDBUF);
            assertEquals(2 * buffers, StreamBeforeFrame.maxOctets(pair.accepted, true));
        }
    }

    /**
     * The client writes 1.5 MiB in plain TCP (or half the bound, where TCP's buffers are
     * smaller than on Linux loopback) and switches; the server, which read none of it, switches
     * too and reads it all first, then what came after the switch. Before, more than 1 MiB
     * failed the switch.
     */
    @Test
    void moreThanAMebibyteWrittenBeforeTheSwitchStaysReadable() throws Exception {
        int size;
        try (ChannelPair pair = new ChannelPair()) {
            size = Math.min(3 << 19, StreamBeforeFrame.maxOctets(pair.accepted, true) / 2);
        }
        byte[] before = new byte[size];
        new SplittableRandom(5044).nextBytes(before);
        try (ExtendedServerSocket server = new ExtendedServerSocket(0, 50, LOOPBACK);
             ExtendedSocket client = new ExtendedSocket(LOOPBACK, server.getLocalPort());
             ExtendedSocket accepted = server.accept()) {
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    client.getOutputStream().write(before);
                    client.setOption(IwarpOptions.IWARP_MODE, true);
                    client.getOutputStream().write(new byte[] {'!'});
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            accepted.setOption(IwarpOptions.IWARP_MODE, true);
            byte[] read = new byte[size + 1];
            new DataInputStream(accepted.getInputStream()).readFully(read);
            writer.get(20, TimeUnit.SECONDS);
            assertArrayEquals(before, java.util.Arrays.copyOf(read, size));
            assertEquals('!', read[size]);
        }
    }

    /** A connected pair of channels on loopback. */
    private static final class ChannelPair implements AutoCloseable {
        final ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress(LOOPBACK, 0));
        final SocketChannel client = SocketChannel.open(server.getLocalAddress());
        final SocketChannel accepted = server.accept();

        ChannelPair() throws IOException {
        }

        @Override
        public void close() throws IOException {
            accepted.close();
            client.close();
            server.close();
        }
    }
}
