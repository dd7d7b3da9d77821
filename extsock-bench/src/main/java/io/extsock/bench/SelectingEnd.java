package io.extsock.bench;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Iterator;

/**
 * One end of a connection driven as an event loop drives it: the channel non-blocking,
 * registered for reading with a selector of its own provider's; each wait a {@code select()}
 * whose selected keys are taken from the set, then reads until the channel has nothing more,
 * and writes until the socket takes no more, then a wait for room with OP_WRITE (the way
 * Netty's NIO transport reads and writes).
 */
final class SelectingEnd implements MessageEnd {

    /** What a reader does with each read's bytes. */
    interface Chunks {
        /** {@code buffer} holds a read's bytes, from 0 to its position. */
        void arrived(ByteBuffer buffer) throws IOException;
    }

    private final SocketChannel channel;
    private final Selector selector;
    private final SelectionKey key;

    /** Takes the channel: makes it non-blocking, and closes it if this end cannot be made. */
    SelectingEnd(SocketChannel channel) throws IOException {
        this.channel = channel;
        Selector made = null;
        try {
            channel.configureBlocking(false);
            made = channel.provider().openSelector();
            this.key = channel.register(made, SelectionKey.OP_READ);
        } catch (IOException | RuntimeException e) {
            Closing.quietly(made, e);
            Closing.quietly(channel, e);
            throw e;
        }
        this.selector = made;
    }

    /** Fills the buffer's remaining room, waiting in the selector whenever nothing has come. */
    @Override
    public void readFully(ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            awaitReady(SelectionKey.OP_READ);
            int n;
            while ((n = channel.read(buffer)) > 0 && buffer.hasRemaining()) {
                // read on while the channel has more
            }
            if (n < 0) {
                throw new EOFException("the other end closed with " + buffer.remaining() + " bytes to come");
            }
        }
    }

    /**
     * Reads {@code total} bytes through {@code buffer}: a wait, then reads until the channel
     * has nothing more, each read handed to {@code chunks} from a cleared buffer.
     */
    void readTotal(ByteBuffer buffer, long total, Chunks chunks) throws IOException {
        long left = total;
        while (left > 0) {
            awaitReady(SelectionKey.OP_READ);
            while (left > 0) {
                buffer.clear();
                buffer.limit((int) Math.min(buffer.capacity(), left));
                int n = channel.read(buffer);
                if (n < 0) {
                    throw new EOFException("the other end closed with " + left + " bytes to come");
                }
                if (n == 0) {
                    break;
                }
                chunks.arrived(buffer);
                left -= n;
            }
        }
    }

    /** Writes what the buffer holds, waiting for room (OP_WRITE) when the socket takes nothing. */
    @Override
    public void writeFully(ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            if (channel.write(buffer) == 0) {
                key.interestOps(SelectionKey.OP_WRITE);
                try {
                    awaitReady(SelectionKey.OP_WRITE);
                } finally {
                    key.interestOps(SelectionKey.OP_READ);
                }
            }
        }
    }

    /** Selects until this end's key is ready for {@code op}, taking every selected key from the set. */
    private void awaitReady(int op) throws IOException {
        while (true) {
            selector.select();
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedIOException("interrupted waiting for the channel to be ready");  // a test's timeout, say
            }
            boolean ready = false;
            for (Iterator<SelectionKey> keys = selector.selectedKeys().iterator(); keys.hasNext(); ) {
                SelectionKey selected = keys.next();
                keys.remove();
                if (selected != key) {
                    throw new IllegalStateException("a selector with one key selected another: " + selected);
                }
                ready |= (selected.readyOps() & op) != 0;
            }
            if (ready) {
                return;
            }
        }
    }

    @Override
    public void close() throws IOException {
        try {
            selector.close();
        } finally {
            channel.close();
        }
    }
}
