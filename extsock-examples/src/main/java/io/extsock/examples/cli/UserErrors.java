package io.extsock.examples.cli;

import io.extsock.IwarpNegotiationException;
import io.extsock.IwarpUnavailableException;
import java.io.EOFException;
import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Turns the exceptions of sockets and files into one line a user can act on. Kept in one place
 * so that every command says the same thing about the same failure.
 */
public final class UserErrors {

    private UserErrors() {
    }

    /** A failure to connect to {@code peer} ("host:port"), or to switch the new connection to IWARP_MODE. */
    public static UserError connecting(String peer, IOException e) {
        if (e instanceof ConnectException && String.valueOf(e.getMessage()).contains("refused")) {
            return new UserError("connection refused: " + peer + " (is the server running?)", e);
        }
        if (e instanceof UnknownHostException) {
            return new UserError("unknown host: " + e.getMessage(), e);
        }
        if (e instanceof NoRouteToHostException) {
            return new UserError("no route to host: " + peer, e);
        }
        if (e instanceof SocketTimeoutException) {
            return new UserError("host unreachable: no answer from " + peer + " in time (" + message(e) + ")", e);
        }
        if (e instanceof ConnectException) {
            return new UserError("cannot connect to " + peer + ": " + message(e), e);
        }
        return during("connecting to " + peer, e);
    }

    /** A failure while talking to {@code peer}, described by {@code activity} ("receiving the file"). */
    public static UserError during(String activity, IOException e) {
        if (e instanceof IwarpNegotiationException negotiation) {
            return notInIwarpMode(negotiation);
        }
        if (e instanceof IwarpUnavailableException) {
            return new UserError("IWARP_MODE is not available: " + message(e)
                    + " (is extsock-core on the class path?)", e);
        }
        if (e instanceof EOFException) {
            return new UserError("the peer closed the connection while " + activity, e);
        }
        if (isNoSpace(e)) {
            return new UserError("no space left on device while " + activity, e);
        }
        return new UserError(message(e) + " (while " + activity + ")", e);
    }

    /** A failed IWARP_MODE negotiation: usually one end was started without IWARP_MODE. */
    public static UserError notInIwarpMode(IwarpNegotiationException e) {
        String reason = message(e);
        switch (e.reason()) {
            case NOT_AN_IWARP_PEER:
            case TIMEOUT:
            case CONNECTION_CLOSED:
                return new UserError("peer is not in IWARP_MODE: " + reason
                        + " (start both ends with IWARP_MODE, or neither)", e);
            default:
                return new UserError(reason, e);
        }
    }

    /** A failure to listen on {@code address} ("host:port"). */
    public static UserError listening(String address, IOException e) {
        if (e instanceof BindException) {
            return new UserError("cannot listen on " + address + ": " + message(e), e);
        }
        if (e instanceof UnknownHostException) {
            return new UserError("unknown host: " + e.getMessage(), e);
        }
        return new UserError("cannot listen on " + address + ": " + message(e), e);
    }

    /** A failure of a file operation on {@code path}. */
    public static UserError file(String path, IOException e) {
        if (e instanceof NoSuchFileException) {
            return new UserError("no such file or directory: " + path, e);
        }
        if (e instanceof AccessDeniedException) {
            return new UserError("permission denied: " + path, e);
        }
        if (e instanceof FileAlreadyExistsException) {
            return new UserError("already exists: " + path, e);
        }
        if (e instanceof NotDirectoryException) {
            return new UserError("not a directory: " + path, e);
        }
        if (isNoSpace(e)) {
            return new UserError("no space left on device writing " + path, e);
        }
        return new UserError(message(e) + ": " + path, e);
    }

    public static boolean isNoSpace(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (String.valueOf(t.getMessage()).contains("No space left on device")) {
                return true;
            }
        }
        return false;
    }

    /** The exception's message, or its kind when it has none. */
    public static String message(Throwable e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }
}
