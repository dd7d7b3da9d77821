package io.extsock.core.stream;

import io.extsock.internal.SocketErrors;
import java.net.SocketException;

/**
 * How a stream's writes answer once the peer closed or reset TCP: as a Socket's would. Guarded
 * by the {@link StreamOutput}'s monitor.
 */
final class PeerEnd {

    private boolean closedInOrder;
    private boolean reset;
    /** A write came after the peer closed or reset TCP (the next one fails, as TCP's would). */
    private boolean writtenAfterEnd;

    /** The connection ended: the peer closed TCP in order, or reset it, or neither. */
    void ended(boolean closedInOrder, boolean reset) {
        this.closedInOrder = closedInOrder;
        this.reset = reset;
    }

    /** Whether the peer closed or reset TCP. */
    boolean ended() {
        return closedInOrder || reset;
    }

    /**
     * Before a write's bytes go: whether the write is to end quietly (the peer closed TCP: see
     * {@link #answerWrite}); throws where it is to fail.
     *
     * @param bytesLeftUnread whether the peer ending now leaves bytes of this write unread: it
     *     waited for the peer's window (whose application then had our bytes unread), or part of
     *     it went out (the rest cannot follow)
     * @param output whether our own socket closed, or the stream failed
     */
    boolean endsWrite(boolean bytesLeftUnread, OutputStatus output) throws SocketException {
        if (output.closed()) {
            throw new SocketException("Socket closed");
        }
        if (closedInOrder && bytesLeftUnread) {
            throw resetUnderWrite();
        }
        if (ended()) {
            answerWrite();
            return true;
        }
        if (output.failed()) {
            throw new SocketException(output.failure());
        }
        return false;
    }

    /**
     * A write once the peer closed or reset TCP, as a Socket's: after an orderly close the first
     * write is accepted (TCP sends it; the peer's answer is a reset) and later ones fail with
     * "Broken pipe"; after a reset the first fails with "Connection reset by peer", later ones
     * with "Broken pipe". The bytes go nowhere: the peer's socket is gone.
     */
    void answerWrite() throws SocketException {
        boolean first = !writtenAfterEnd;
        writtenAfterEnd = true;
        if (!first) {
            throw SocketErrors.brokenPipe(null);
        }
        if (reset) {
            throw new SocketException("Connection reset by peer");
        }
    }

    /**
     * The peer closed TCP while a write waited for its window, or with part of the write sent
     * and the rest not: the peer's application left our bytes unread (it died, or closed without
     * reading), or the rest can never follow. TCP answers a close with unread data by a reset,
     * and a writer blocked on a full window then fails with it; so does this one, rather than
     * return as if its bytes had gone out.
     */
    private static SocketException resetUnderWrite() {
        return new SocketException("Connection reset by peer");
    }
}
