package io.extsock.internal;

import io.extsock.spi.SocketTransport;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketException;
import java.util.Objects;

/**
 * A socket's input and output streams: they read and write whatever transport carries the
 * stream now (passthrough, or IWARP_MODE after a switch), with the JDK's NioSocketImpl's checks
 * in its order.
 */
final class SocketStreams {

    /** What the streams need of their socket. */
    interface Socket {
        /** The transport now, once any pending switch completed; the socket's state error if none. */
        SocketTransport connectedTransport() throws IOException;

        /** SO_TIMEOUT, in milliseconds (0: none). */
        int timeout();

        void close() throws IOException;

        /** Closes the socket (not just its channel) after {@code failure}. */
        void closeOwner(Exception failure);
    }

    private final Socket socket;
    /** A read returned end of stream: later reads return it too, even after close (as Socket's). */
    private volatile boolean endOfStreamRead;

    SocketStreams(Socket socket) {
        this.socket = socket;
    }

    InputStream input() {
        return new TransportInputStream();
    }

    OutputStream output() {
        return new TransportOutputStream();
    }

    /**
     * An I/O call ended by an interrupt closes the socket, not just its channel, as a Socket on a
     * virtual thread does (java.net.Socket: "Closed by interrupt"): the channel closed itself
     * (passthrough), or the engine's wait ended on a virtual thread's interrupt (IWARP_MODE).
     */
    private IOException closedByInterrupt(IOException e) {
        boolean byInterrupt = SocketErrors.CLOSED_BY_INTERRUPT.equals(e.getMessage())
                || e instanceof java.io.InterruptedIOException && !(e instanceof java.net.SocketTimeoutException)
                        && Thread.currentThread().isInterrupted();
        if (!byInterrupt) {
            return e;
        }
        SocketException closed = e instanceof SocketException ? (SocketException) e
                : new SocketException(SocketErrors.CLOSED_BY_INTERRUPT);
        if (closed != e) {
            closed.initCause(e);
        }
        socket.closeOwner(closed);
        return closed;
    }

    /**
     * The socket's input stream: reads whatever transport currently carries the stream, with
     * the JDK's NioSocketImpl's checks in its order: bounds, an empty read (0, even when
     * closed), end of stream already read (-1 for good, even after close: "legacy behavior"),
     * then the socket's state.
     */
    private final class TransportInputStream extends InputStream {
        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n > 0 ? one[0] & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            if (len == 0) {
                return 0;
            }
            if (endOfStreamRead) {
                return -1;
            }
            int n;
            try {
                n = socket.connectedTransport().read(b, off, len, socket.timeout());
            } catch (IOException e) {
                throw closedByInterrupt(e);
            }
            if (n < 0) {
                endOfStreamRead = true;
            }
            return n;
        }

        @Override
        public int available() throws IOException {
            return socket.connectedTransport().available();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** The socket's output stream: writes to whatever transport currently carries the stream. */
    private final class TransportOutputStream extends OutputStream {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        /** As NioSocketImpl's: bounds, then nothing to do for an empty write (even when closed). */
        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            if (len == 0) {
                return;
            }
            try {
                socket.connectedTransport().write(b, off, len);
            } catch (IOException e) {
                throw closedByInterrupt(e);
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
