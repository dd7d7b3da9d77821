package io.extsock.core.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The TCP connection of an IWARP_MODE socket its application closed, kept open a little
 * longer: output shut down (our FIN goes out after the last of our bytes), and whatever still
 * arrives read and dropped by a progress thread, until the peer closes too or has been quiet for
 * {@link #QUIET_MILLIS}. Only then is the descriptor closed.
 *
 * <p>Why: Linux answers bytes that arrive for a socket already closed with a reset, and a
 * reset throws away what that socket still had to send. Over TCP, an application that closes
 * after its last write has nothing more coming. Over iWARP the peer's engine keeps returning
 * stream credits as its application reads what we sent, until our FIN reaches it: closed at
 * once, the socket was reset by those, and the peer lost the tail of our data or read a reset
 * where the end of stream was (the demo's echo of 8 MiB, with the client's SO_RCVBUF at 4 KiB,
 * failed so every time).
 *
 * <p>Quiet for {@link #QUIET_MILLIS}: an extsock peer sends nothing once its engine has read our
 * FIN, so a peer that stays open and silent is done with us. A connection its application uses
 * through its streams alone is read only when that application reads, so a reader that pauses
 * may return credits later than this; by then our last bytes have left this socket for the
 * peer's (IdleStreamReadingTest pauses such a reader past the quiet, and it gets every byte and
 * the end of stream). At most {@link #MOST_AT_ONCE} connections linger at once in a JVM; beyond
 * that a close is immediate, as before, rather than holding descriptors without bound.
 */
final class LingeringClose {

    static final long QUIET_MILLIS = 2_000;
    static final int MOST_AT_ONCE = 1024;

    private static final System.Logger LOG = System.getLogger(LingeringClose.class.getName());
    private static final AtomicInteger LINGERING = new AtomicInteger();

    private final SocketChannel channel;
    private final ProgressThread thread;
    private final long quietMillis;
    /** Progress thread only, from here on. */
    private SelectionKey key;
    private long lastHeardNanos;
    private boolean ended;

    private LingeringClose(SocketChannel channel, ProgressThread thread, long quietMillis) {
        this.channel = channel;
        this.thread = thread;
        this.quietMillis = quietMillis;
    }

    /**
     * Shuts the channel's output down and leaves the channel to {@code thread}, which closes it
     * once the peer has closed or gone quiet for {@link #QUIET_MILLIS}; closes it at once if it
     * cannot linger.
     */
    static void begin(SocketChannel channel, ProgressThread thread) {
        begin(channel, thread, QUIET_MILLIS, MOST_AT_ONCE);
    }

    /**
     * As {@link #begin(SocketChannel, ProgressThread)}, quiet for {@code quietMillis} and with
     * {@code mostAtOnce} lingering in the JVM at most (tests).
     */
    static void begin(SocketChannel channel, ProgressThread thread, long quietMillis, int mostAtOnce) {
        try {
            channel.shutdownOutput();
        } catch (IOException e) {
            closeQuietly(channel);  // reset or gone: nothing of ours can arrive any more
            return;
        }
        if (LINGERING.incrementAndGet() > mostAtOnce) {
            LINGERING.decrementAndGet();
            closeQuietly(channel);
            return;
        }
        thread.executeSoon(new LingeringClose(channel, thread, quietMillis)::watch);  // the kernel holds what comes meanwhile
    }

    /** Connections lingering now, in this JVM. */
    static int lingering() {
        return LINGERING.get();
    }

    /** Progress thread: read interest on, with this as the key's attachment. */
    private void watch() {
        SelectionKey old = channel.keyFor(thread.selector());
        try {
            if (old != null && !old.isValid()) {
                thread.schedule(1, this::watch);  // the connection's cancelled key goes at the next select
                return;
            }
            if (old != null) {
                old.attach(this);
                old.interestOps(SelectionKey.OP_READ);
                key = old;
            } else {
                key = channel.register(thread.selector(), SelectionKey.OP_READ, this);
            }
        } catch (IOException | RuntimeException e) {
            end();
            return;
        }
        lastHeardNanos = System.nanoTime();
        thread.schedule(quietMillis, this::endIfQuiet);
        onReadable();  // the peer may have closed already
    }

    /** Progress thread: drops what arrived; the peer's end of stream, or an error, closes. */
    void onReadable() {
        ByteBuffer sink = thread.discardBuffer();
        try {
            while (!ended) {
                int n = channel.read(sink.clear());
                if (n < 0) {
                    end();
                } else if (n == 0) {
                    return;
                } else {
                    lastHeardNanos = System.nanoTime();
                }
            }
        } catch (IOException e) {
            end();
        }
    }

    private void endIfQuiet() {
        if (ended) {
            return;
        }
        long quietFor = (System.nanoTime() - lastHeardNanos) / 1_000_000;
        if (quietFor >= quietMillis) {
            if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
                LOG.log(System.Logger.Level.DEBUG, "closing a closed iWARP connection's TCP after "
                        + quietMillis + " ms without a byte or the peer's close");
            }
            end();
        } else {
            thread.schedule(quietMillis - quietFor, this::endIfQuiet);
        }
    }

    private void end() {
        if (ended) {
            return;
        }
        ended = true;
        LINGERING.decrementAndGet();
        if (key != null) {
            key.cancel();
        }
        closeQuietly(channel);
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing: nothing left to tell
        }
    }
}
