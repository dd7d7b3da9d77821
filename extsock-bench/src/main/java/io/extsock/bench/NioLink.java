package io.extsock.bench;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.function.Consumer;

/**
 * A loopback connection of plain NIO channels, no protocol, whose two ends wait for input one
 * of two ways: blocking inside {@code read}, as {@code java.net.Socket} does, or, as an
 * IWARP_MODE engine must (see {@link NioWaitFloor}), in a Selector of the end's own on a
 * non-blocking channel ({@code epoll_wait}, then {@code read}). The wait floors' common part.
 */
final class NioLink implements Closeable {

    /** One end: a channel, and the Selector its thread waits in when it does not block in read. */
    static final class End implements Closeable {
        private static final Consumer<SelectionKey> IGNORE = key -> { };
        private final SocketChannel channel;
        private final Selector selector;

        /** Takes the channel: closes it if this end cannot be made. */
        private End(SocketChannel channel, boolean selecting) throws IOException {
            this.channel = channel;
            Selector made = null;
            try {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                if (selecting) {
                    channel.configureBlocking(false);
                    made = Selector.open();
                    channel.register(made, SelectionKey.OP_READ);
                }
            } catch (IOException | RuntimeException e) {
                Closing.quietly(made, e);
                Closing.quietly(channel, e);
                throw e;
            }
            this.selector = made;
        }

        /** Reads until the buffer, cleared first, is full; a selecting end waits before each read. */
        void readFully(ByteBuffer buffer) throws IOException {
            buffer.clear();
            while (buffer.hasRemaining()) {
                if (selector != null) {
                    selector.select(IGNORE);  // as the engine's waiter: wait for readiness, then read
                }
                if (channel.read(buffer) < 0) {
                    throw new EOFException("the other end closed");
                }
            }
        }

        /**
         * One read of what has come, up to the buffer's room (cleared first); a selecting end
         * reads first and waits only when nothing has come, as the engine's reader does.
         *
         * @return the bytes read, or -1 at the end of the stream
         */
        int readSome(ByteBuffer buffer) throws IOException {
            buffer.clear();
            return readMore(buffer);
        }

        /**
         * One read into the buffer's room (not cleared: octets before its position stay); a
         * selecting end reads first and waits only when nothing has come.
         *
         * @return the bytes read, or -1 at the end of the stream
         */
        int readMore(ByteBuffer buffer) throws IOException {
            if (!buffer.hasRemaining()) {
                throw new IllegalArgumentException("no room to read into");  // a read of 0 would look like no input
            }
            while (true) {
                int n = channel.read(buffer);
                if (n != 0 || selector == null) {
                    return n;
                }
                selector.select(IGNORE);
            }
        }

        /**
         * Writes what the buffers hold, from their positions (not cleared, unlike {@link
         * #writeFully}), in gathering writes; a selecting end waits for room as that does.
         */
        void writeGathered(ByteBuffer[] buffers) throws IOException {
            long left = 0;
            for (ByteBuffer buffer : buffers) {
                left += buffer.remaining();
            }
            while (left > 0) {
                long written = channel.write(buffers);
                left -= written;
                if (written == 0 && selector != null) {
                    awaitRoom();
                }
            }
        }

        /** Writes the whole buffer, cleared first; a selecting end waits for room in its Selector. */
        void writeFully(ByteBuffer buffer) throws IOException {
            buffer.clear();  // all of it: what the other end reads, or sent the last time
            while (buffer.hasRemaining()) {
                if (channel.write(buffer) == 0 && selector != null) {
                    awaitRoom();
                }
            }
        }

        private void awaitRoom() throws IOException {
            SelectionKey key = channel.keyFor(selector);
            key.interestOps(SelectionKey.OP_WRITE);
            try {
                selector.select(IGNORE);
            } finally {
                key.interestOps(SelectionKey.OP_READ);
            }
        }

        @Override
        public void close() throws IOException {
            try {
                if (selector != null) {
                    selector.close();
                }
            } finally {
                channel.close();
            }
        }
    }

    final End client;
    final End server;

    private NioLink(End client, End server) {
        this.client = client;
        this.server = server;
    }

    /** A new connection whose ends wait in a Selector each ({@code selecting}) or block in read. */
    static NioLink open(boolean selecting) throws IOException {
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            End client = new End(SocketChannel.open(listener.getLocalAddress()), selecting);
            try {
                return new NioLink(client, new End(listener.accept(), selecting));
            } catch (IOException | RuntimeException e) {
                Closing.quietly(client, e);
                throw e;
            }
        }
    }

    @Override
    public void close() throws IOException {
        try {
            client.close();
        } finally {
            server.close();
        }
    }
}
