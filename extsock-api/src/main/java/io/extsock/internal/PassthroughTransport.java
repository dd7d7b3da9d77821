package io.extsock.internal;

import io.extsock.spi.SocketTransport;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NotYetConnectedException;
import java.nio.channels.SocketChannel;
import java.util.Objects;

/**
 * Plain TCP through the socket's channel, with {@code java.net.Socket}'s semantics: reads and
 * writes block, SO_TIMEOUT bounds a read, end of stream is sticky, errors carry the JDK's
 * messages.
 *
 * <p>The channel stays in blocking mode so that a read or write is one system call, as with a
 * plain Socket. Timed reads go through the JDK's own channel adaptor ({@code
 * channel.socket()}), which waits for readiness without a Selector.
 */
final class PassthroughTransport implements SocketTransport {

    /**
     * Largest read or write per call, as in the JDK's NioSocketImpl: it bounds the temporary
     * direct buffer that the JDK caches per thread for heap-array I/O.
     */
    private static final int MAX_IO_SIZE = 128 * 1024;

    private final SocketChannel channel;
    private final Socket adaptor;
    private final InputStream in;
    private final OutputStream out;

    /** The SO_TIMEOUT last handed to the adaptor, so that it is set only when it changes. */
    private volatile int adaptorTimeout;

    /** Once a read has returned end of stream, later reads do too, even after close. */
    private volatile boolean endOfStream;

    PassthroughTransport(SocketChannel channel) throws IOException {
        this.channel = channel;
        this.adaptor = channel.socket();
        try {
            this.in = adaptor.getInputStream();
            this.out = adaptor.getOutputStream();
        } catch (IOException e) {
            throw SocketErrors.asSocketError(e);
        }
    }

    @Override
    public int read(byte[] b, int off, int len, int timeoutMillis) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        if (endOfStream) {
            return -1;
        }
        if (timeoutMillis != adaptorTimeout) {
            adaptor.setSoTimeout(timeoutMillis);
            adaptorTimeout = timeoutMillis;
        }
        if (pendingInterruptOnVirtualThread()) {
            return readWithPendingInterrupt(b, off, len);
        }
        boolean interrupted = InterruptShield.enter();
        try {
            int n = in.read(b, off, Math.min(len, MAX_IO_SIZE));
            if (n < 0) {
                endOfStream = true;
            }
            return n;
        } catch (NotYetConnectedException e) {
            throw SocketErrors.notConnected(e);
        } catch (IOException e) {
            throw SocketErrors.asSocketError(e);
        } finally {
            InterruptShield.exit(interrupted);
        }
    }

    private static boolean pendingInterruptOnVirtualThread() {
        return Thread.currentThread().isInterrupted() && InterruptShield.currentIsVirtual();
    }

    /**
     * A virtual thread whose interrupt is already set: a Socket reads what is there (or the end
     * of stream) and only where it would block does the interrupt close it. A channel would close
     * at once, so the read is tried without blocking, the interrupt held back meanwhile.
     */
    private int readWithPendingInterrupt(byte[] b, int off, int len) throws IOException {
        int n;
        Thread.interrupted();
        try {
            channel.configureBlocking(false);
            try {
                n = channel.read(ByteBuffer.wrap(b, off, Math.min(len, MAX_IO_SIZE)));
            } finally {
                channel.configureBlocking(true);
            }
        } catch (NotYetConnectedException e) {
            throw SocketErrors.notConnected(e);
        } catch (IOException e) {
            throw SocketErrors.asSocketError(e);
        } finally {
            Thread.currentThread().interrupt();
        }
        if (n == 0) {
            throw new SocketException(SocketErrors.CLOSED_BY_INTERRUPT);  // it would block: the socket closes
        }
        if (n < 0) {
            endOfStream = true;
        }
        return n;
    }

    /** As {@link #readWithPendingInterrupt}: a write that would block closes the socket. */
    private void writeWithPendingInterrupt(byte[] b, int off, int len) throws IOException {
        boolean wouldBlock = false;
        Thread.interrupted();
        try {
            channel.configureBlocking(false);
            try {
                ByteBuffer source = ByteBuffer.wrap(b, off, len);
                while (source.hasRemaining() && !wouldBlock) {
                    wouldBlock = channel.write(source) == 0;
                }
            } finally {
                channel.configureBlocking(true);
            }
        } catch (NotYetConnectedException e) {
            throw SocketErrors.notConnected(e);
        } catch (IOException e) {
            throw writeFailure(e);
        } finally {
            Thread.currentThread().interrupt();
        }
        if (wouldBlock) {
            throw new SocketException(SocketErrors.CLOSED_BY_INTERRUPT);
        }
    }

    @Override
    public int available() throws IOException {
        try {
            return in.available();
        } catch (NotYetConnectedException e) {
            throw SocketErrors.notConnected(e);
        } catch (IOException e) {
            throw SocketErrors.asSocketError(e);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (pendingInterruptOnVirtualThread()) {
            writeWithPendingInterrupt(b, off, len);
            return;
        }
        boolean interrupted = InterruptShield.enter();
        try {
            int end = off + len;
            for (int pos = off; pos < end; ) {
                int size = Math.min(end - pos, MAX_IO_SIZE);
                out.write(b, pos, size);
                pos += size;
            }
        } catch (NotYetConnectedException e) {
            throw SocketErrors.notConnected(e);
        } catch (IOException e) {
            throw writeFailure(e);
        } finally {
            InterruptShield.exit(interrupted);
        }
    }

    /** A failed write, as a Socket reports it. */
    private IOException writeFailure(IOException e) {
        // The channel refuses a write after shutdownOutput itself; a Socket's write reaches TCP,
        // which answers EPIPE.
        if (e instanceof ClosedChannelException && channel.isOpen()) {
            return SocketErrors.brokenPipe(e);
        }
        return SocketErrors.asSocketError(e);
    }

    @Override
    public void shutdownInput() throws IOException {
        try {
            channel.shutdownInput();
        } catch (NotYetConnectedException e) {
            throw SocketErrors.notConnected(e);
        } catch (IOException e) {
            throw SocketErrors.asSocketError(e);
        }
    }

    @Override
    public void shutdownOutput() throws IOException {
        try {
            channel.shutdownOutput();
        } catch (NotYetConnectedException e) {
            throw SocketErrors.notConnected(e);
        } catch (IOException e) {
            throw SocketErrors.asSocketError(e);
        }
    }

    /**
     * Closes as the JDK's own Socket does (NioSocketImpl): unless SO_LINGER is 0, output is shut
     * down first. A SocketChannel closes the descriptor directly, and Linux answers a close with
     * unread input by a reset alone, so the peer would read "Connection reset" where a Socket's
     * peer reads our FIN (sent before the reset) as end of stream.
     */
    @Override
    public void close() throws IOException {
        try {
            if (channel.isConnected() && channel.getOption(StandardSocketOptions.SO_LINGER) != 0) {
                channel.shutdownOutput();
            }
        } catch (IOException | RuntimeException ignored) {
            // as NioSocketImpl: the close goes on
        }
        channel.close();
    }
}
