package io.extsock.core.stream;

import java.net.SocketException;

/**
 * Where a stream's output stands: open or closed, shut down (its FIN sent), failed and why.
 * Guarded by the {@link StreamOutput}'s monitor.
 */
final class OutputStatus {

    private boolean closed;
    private boolean shut;
    /** Why the stream failed: the first reason given. */
    private String failure;
    /** Why a DATA Send failed: what decides a write's fate. */
    private String dataFailure;

    boolean closed() {
        return closed;
    }

    /** The socket closed. */
    void close() {
        closed = true;
    }

    /** Whether output was shut down: the FIN went, or the peer had gone. */
    boolean shut() {
        return shut;
    }

    void shutDown() {
        shut = true;
    }

    boolean failed() {
        return failure != null;
    }

    /** Whether nothing more goes out: the stream failed or closed. */
    boolean stopped() {
        return failure != null || closed;
    }

    /** The stream failed; the first reason is the one given. */
    void fail(String reason) {
        if (failure == null) {
            failure = reason;
        }
    }

    /** A Send of ours failed ({@code data}: a DATA Send, which decides the writes it carried). */
    void sendFailed(boolean data, String reason) {
        if (data && dataFailure == null) {
            dataFailure = reason;
        }
        fail(reason);
    }

    /** Why a DATA Send failed, or null. */
    String dataFailure() {
        return dataFailure;
    }

    /** Throws if the socket closed or the stream failed. */
    void requireOpen() throws SocketException {
        if (closed) {
            throw new SocketException("Socket closed");
        }
        if (failure != null) {
            throw new SocketException(failure);
        }
    }

    /** Why the stream failed, or null. */
    String failure() {
        return failure;
    }
}
