package io.extsock.internal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketException;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NotYetConnectedException;

/**
 * Turns the exceptions of {@code java.nio} channels into the ones a {@code java.net.Socket}
 * throws in the same situation (the JDK's NioSocketImpl), so that code written against
 * Socket, including code that matches on messages such as "Socket closed", sees no
 * difference.
 */
public final class SocketErrors {

    public static final String SOCKET_CLOSED = "Socket closed";
    public static final String NOT_CONNECTED = "Not connected";
    public static final String CLOSED_BY_INTERRUPT = "Closed by interrupt";
    public static final String BROKEN_PIPE = "Broken pipe";

    private SocketErrors() {
    }

    /** The exception a Socket would have thrown where a channel threw {@code e}. */
    public static IOException asSocketError(IOException e) {
        if (e instanceof ClosedByInterruptException) {
            SocketException se = new SocketException(CLOSED_BY_INTERRUPT);
            se.initCause(e);
            return se;
        }
        if (e instanceof ClosedChannelException || e instanceof AsynchronousCloseException) {
            return new SocketException(SOCKET_CLOSED);
        }
        if (e instanceof SocketException || e instanceof InterruptedIOException) {
            return e;  // SocketTimeoutException included: same class and message as Socket's
        }
        SocketException se = new SocketException(e.getMessage());
        se.initCause(e);
        return se;
    }

    /** The exception a Socket's connect would have thrown where the channel's threw {@code e}. */
    public static IOException asConnectError(IOException e) {
        if (e instanceof ClosedChannelException || e instanceof AsynchronousCloseException) {
            return asSocketError(e);
        }
        return e;  // ConnectException, SocketTimeoutException, NoRouteToHostException: as Socket
    }

    /** The SocketException a Socket's option methods throw for {@code e}. */
    public static SocketException asOptionError(Exception e) {
        if (e instanceof SocketException se) {
            return se;
        }
        if (e instanceof ClosedChannelException) {
            return new SocketException(SOCKET_CLOSED);
        }
        SocketException se = new SocketException(e.getMessage());
        se.initCause(e);
        return se;
    }

    /**
     * The exception a Socket's write throws after {@code shutdownOutput}: TCP's EPIPE, with the
     * message the JDK takes from the system ("Broken pipe" on Linux and macOS).
     */
    public static SocketException brokenPipe(Throwable cause) {
        SocketException se = new SocketException(BROKEN_PIPE);
        if (cause != null) {
            se.initCause(cause);
        }
        return se;
    }

    /** The exception a Socket throws when used before it is connected. */
    public static SocketException notConnected(NotYetConnectedException e) {
        SocketException se = new SocketException(NOT_CONNECTED);
        se.initCause(e);
        return se;
    }
}
