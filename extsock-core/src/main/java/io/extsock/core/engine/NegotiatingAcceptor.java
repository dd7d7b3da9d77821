package io.extsock.core.engine;

import io.extsock.IwarpNegotiationException;
import io.extsock.core.memory.DirectBufferPool;
import io.extsock.core.mpa.MpaFrameType;
import io.extsock.core.mpa.MpaPreferences;
import io.extsock.core.verbs.ConnectionCounters;
import io.extsock.internal.nio.PlatformProvider;
import io.extsock.spi.AcceptedAhead;
import io.extsock.spi.IwarpAcceptor;
import io.extsock.spi.IwarpSession;
import io.extsock.spi.NotAnIwarpPeerException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Negotiates a listening channel's connections as they arrive, before the application accepts
 * them, as the kernel completes TCP's handshake before {@code accept}: a client's connect then
 * ends one round trip after its MPA Request, however slowly the server's application gets to
 * each connection (one thread of its own per listener, which a thread start per connection in
 * the application's accept loop would otherwise pace).
 *
 * <p>One thread and one Selector per listener. Each connection's MPA Request is read without
 * blocking; once it is whole the Reply goes out (a frame a new connection's empty send buffer
 * takes whole) and the engine takes the connection, which then waits in a queue for {@link
 * #take} ({@link AcceptedQueue}). A connection whose negotiation fails is closed there and then (logged and recorded as
 * any failed negotiation); with FALLBACK, one whose peer is not an iWARP peer waits in the queue
 * as plain TCP, with the octets it sent.
 *
 * <p>What a hostile client can hold: a pending negotiation costs a buffer of a few KiB and a file
 * descriptor, no thread, and ends at the MPA timeout (or the fallback wait). At most {@link
 * #MAX_PENDING} are pending at once: a new connection past that ends the oldest pending one, as
 * a kernel under a SYN flood drops its oldest half-open connections. An honest client negotiates
 * within a round trip, so the oldest is almost surely a staller, and a crowd of stallers cannot
 * keep honest clients out for as long as their MPA timeout. At most {@code backlog} negotiated
 * connections wait to be taken; past that the thread stops accepting, and the kernel's backlog
 * holds the rest until the application accepts again.
 */
final class NegotiatingAcceptor implements IwarpAcceptor {

    private static final System.Logger LOG = System.getLogger(NegotiatingAcceptor.class.getName());

    /** Most negotiations in progress at once. */
    static final int MAX_PENDING = 1024;

    /** After an accept failed (out of file descriptors, say), how long before the next try. */
    private static final long ACCEPT_RETRY_NANOS = 100_000_000L;

    /** One connection whose MPA Request is still coming. */
    private static final class Pending {
        final SocketChannel channel;
        final MpaHandshake handshake;
        final long started;
        final String peer;
        final String local;
        SelectionKey key;

        Pending(SocketChannel channel, MpaHandshake handshake, long started) {
            this.channel = channel;
            this.handshake = handshake;
            this.started = started;
            this.peer = SoftwareIwarpProvider.address(channel, true);
            this.local = SoftwareIwarpProvider.address(channel, false);
        }
    }

    private final ServerSocketChannel listener;
    private final ConnectionSettings settings;
    private final ExtsockHello hello;
    private final MpaPreferences preferences;
    private final DirectBufferPool memory;
    private final int maxPending;
    private final Selector selector;
    private final SelectionKey listenerKey;
    private final Thread thread;

    /** Acceptor thread only. */
    private final List<Pending> pending = new ArrayList<>();
    /** Acceptor thread only: fell back, waiting for their selector keys to go before blocking mode. */
    private final List<AcceptedAhead> fellBack = new ArrayList<>();
    private long acceptRetryAt;
    /** Acceptor thread only: pending negotiations ended to make room. */
    private long evictions;

    /** Negotiated, waiting to be taken. */
    private final AcceptedQueue accepted;
    private volatile boolean closed;

    private NegotiatingAcceptor(ServerSocketChannel listener, ConnectionSettings settings, int backlog,
                                DirectBufferPool memory, int maxPending) throws IOException {
        this.listener = listener;
        this.settings = settings;
        this.hello = SoftwareIwarpProvider.hello(settings);
        this.preferences = settings.mpaPreferences(hello);
        this.memory = memory;
        this.maxPending = maxPending;
        this.selector = PlatformProvider.get().openSelector();
        this.accepted = new AcceptedQueue(backlog, selector::wakeup);  // room again: the thread accepts more
        try {
            listener.configureBlocking(false);
            this.listenerKey = listener.register(selector, SelectionKey.OP_ACCEPT);
        } catch (IOException | RuntimeException e) {
            selector.close();
            throw e;
        }
        int port = ((InetSocketAddress) listener.getLocalAddress()).getPort();
        this.thread = new Thread(this::run, "extsock-accept-ahead-" + port);
        thread.setDaemon(true);
    }

    /**
     * Starts negotiating {@code listener}'s connections.
     *
     * @throws IOException if the selector cannot be opened or the listener registered; the
     *         listener is then closed
     */
    static NegotiatingAcceptor start(ServerSocketChannel listener, ConnectionSettings settings, int backlog,
                                     DirectBufferPool memory) throws IOException {
        return start(listener, settings, backlog, memory, MAX_PENDING);
    }

    /** As above, with at most {@code maxPending} negotiations pending at once (tests: a limit that is quick to reach). */
    static NegotiatingAcceptor start(ServerSocketChannel listener, ConnectionSettings settings, int backlog,
                                     DirectBufferPool memory, int maxPending) throws IOException {
        NegotiatingAcceptor acceptor;
        try {
            acceptor = new NegotiatingAcceptor(listener, settings, backlog, memory, maxPending);
        } catch (IOException | RuntimeException e) {
            try {
                listener.close();
            } catch (IOException closeFailure) {
                e.addSuppressed(closeFailure);
            }
            throw e;
        }
        acceptor.thread.start();
        return acceptor;
    }

    @Override
    public AcceptedAhead take(long timeoutMillis) throws IOException {
        return accepted.take(timeoutMillis);
    }

    @Override
    public void close() throws IOException {
        closed = true;
        selector.wakeup();
        accepted.close();
        if (Thread.currentThread() != thread) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        IOException failure = null;
        try {
            while (!closed) {
                long now = System.nanoTime();
                long nextDeadline = expire(now);
                handOverFellBack();  // before the select blocks: what fell back is taken meanwhile
                boolean room = accepted.hasRoom();
                boolean retrying = acceptRetryAt != 0 && now - acceptRetryAt < 0;
                listenerKey.interestOps(room && !retrying ? SelectionKey.OP_ACCEPT : 0);
                long wake = retrying ? acceptRetryAt : nextDeadline;
                long millis = wake == 0 ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(wake - now) + 1);
                selector.select(millis);
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key == listenerKey) {
                        acceptWhileRoom();
                    } else {
                        received((Pending) key.attachment());
                    }
                }
            }
        } catch (ClosedChannelException e) {
            if (!closed) {
                failure = e;  // the listener was closed under us
            }
        } catch (IOException | RuntimeException e) {
            failure = e instanceof IOException io ? io : new IOException(e.toString(), e);
            LOG.log(System.Logger.Level.WARNING, "accepting ahead on " + listener + " stopped: " + e, e);
        } finally {
            shutDown(failure);
        }
    }

    /** Accepts until the kernel's queue is empty or a limit is reached. */
    private void acceptWhileRoom() throws IOException {
        while (accepted.hasRoom()) {
            SocketChannel channel;
            try {
                channel = listener.accept();
            } catch (ClosedChannelException e) {
                throw e;
            } catch (IOException e) {
                // Out of file descriptors or memory, a connection reset while queued: try again soon.
                LOG.log(System.Logger.Level.WARNING, "accept on " + listener + " failed, retrying in 100 ms: " + e);
                acceptRetryAt = System.nanoTime() + ACCEPT_RETRY_NANOS;
                return;
            }
            if (channel == null) {
                return;
            }
            acceptRetryAt = 0;
            begin(channel);
        }
    }

    /** A new connection: its handshake starts, with whatever of the Request is already there. */
    private void begin(SocketChannel channel) {
        long started = System.nanoTime();
        if (pending.size() >= maxPending) {
            evictOldest(started);
        }
        Pending connection;
        try {
            channel.configureBlocking(false);
            connection = new Pending(channel, MpaHandshake.nonBlockingResponder(channel, preferences,
                    settings.mpaTimeoutMillis(), settings.fallbackWaitMillis()), started);
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            SoftwareIwarpProvider.reportFailed(SoftwareIwarpProvider.address(channel, true), "unknown", false, e,
                    started);
            return;
        }
        pending.add(connection);
        try {
            connection.key = channel.register(selector, SelectionKey.OP_READ, connection);
        } catch (IOException | RuntimeException e) {
            failed(connection, e);
            return;
        }
        received(connection);
    }

    /** The connection may have more of its Request: read it, and finish once it is whole. */
    private void received(Pending connection) {
        MpaHandshake.Received request;
        try {
            request = connection.handshake.receiveAvailable(MpaFrameType.REQUEST);
        } catch (NotAnIwarpPeerException plainPeer) {
            fellBack(connection, plainPeer);
            return;
        } catch (IOException | RuntimeException e) {
            failed(connection, e);
            return;
        }
        if (request != null) {
            finish(connection, request);
        }
    }

    /** The Request is whole: reply, and hand the connection to the engine and then the queue. */
    private void finish(Pending connection, MpaHandshake.Received request) {
        pending.remove(connection);
        connection.key.cancel();
        SocketChannel channel = connection.channel;
        IwarpSession session;
        try {
            // As an attach sets it before negotiating (see SoftwareIwarpProvider.switchToIwarp).
            channel.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
            MpaHandshake.Outcome outcome = connection.handshake.reply(request);
            session = SoftwareIwarpProvider.negotiated(channel, null, false, settings,
                    new ConnectionCounters(connection.peer, connection.local), connection.started, outcome, hello,
                    memory);
        } catch (IOException | RuntimeException | Error e) {
            failed(connection, e);
            if (e instanceof Error error) {
                throw error;
            }
            return;
        }
        accepted.add(new AcceptedAhead(channel, session, null));
    }

    private void fellBack(Pending connection, NotAnIwarpPeerException plainPeer) {
        pending.remove(connection);
        connection.key.cancel();
        SoftwareIwarpProvider.reportFellBack(connection.peer, connection.local, false, plainPeer, connection.started);
        fellBack.add(new AcceptedAhead(connection.channel, null, plainPeer));
    }

    /**
     * Plain TCP connections go to the queue in blocking mode, as an accepted channel is: that
     * waits for their cancelled keys to leave the selector, which the next select does.
     */
    private void handOverFellBack() throws IOException {
        if (fellBack.isEmpty()) {
            return;
        }
        selector.selectNow();  // flushes the cancelled keys; what became ready waits for the next select
        for (AcceptedAhead connection : fellBack) {
            try {
                connection.channel().configureBlocking(true);
            } catch (IOException e) {
                closeQuietly(connection.channel());  // gone already: its application would only see the error
                continue;
            }
            accepted.add(connection);
        }
        fellBack.clear();
    }

    /** Ends the oldest pending negotiation, to make room for a new connection. */
    private void evictOldest(long now) {
        Pending oldest = pending.get(0);  // the list is in arrival order
        if (evictions++ == 0) {
            LOG.log(System.Logger.Level.WARNING, "accepting ahead on " + listener + ": " + pending.size()
                    + " negotiations pending, the most it holds; each new connection now ends the oldest pending"
                    + " one (a flood of stalled connections? later evictions are logged at DEBUG)");
        }
        failed(oldest, new IwarpNegotiationException(IwarpNegotiationException.Reason.TIMEOUT, "the peer's MPA Request"
                + " was not whole after " + (now - oldest.started) / 1_000_000 + " ms, while " + pending.size()
                + " negotiations were pending, the most the server socket holds: the oldest made room for a new"
                + " connection", null));
    }

    private void failed(Pending connection, Throwable e) {
        pending.remove(connection);
        SoftwareIwarpProvider.reportFailed(connection.peer, connection.local, false, e, connection.started);
        closeQuietly(connection.channel);
    }

    /**
     * Ends the negotiations whose time is up.
     *
     * @return the earliest deadline of those still in progress, or 0 if none is
     */
    private long expire(long now) {
        long earliest = 0;
        for (int i = pending.size() - 1; i >= 0; i--) {
            Pending connection = pending.get(i);
            IOException timedOut = connection.handshake.expired(MpaFrameType.REQUEST, now);
            if (timedOut instanceof NotAnIwarpPeerException plainPeer) {
                fellBack(connection, plainPeer);
            } else if (timedOut != null) {
                failed(connection, timedOut);
            } else {
                long deadline = connection.handshake.nextDeadlineNanos();
                if (earliest == 0 || deadline - earliest < 0) {
                    earliest = deadline;
                }
            }
        }
        return earliest;
    }

    /** The thread's end: every connection not taken is closed, and so is the listener. */
    private void shutDown(IOException failure) {
        List<AcceptedAhead> untaken = accepted.stop(failure);
        for (Pending connection : pending) {
            closeQuietly(connection.channel);
        }
        pending.clear();
        untaken.addAll(fellBack);
        fellBack.clear();
        for (AcceptedAhead connection : untaken) {
            connection.discard();
        }
        closeQuietly(listener);
        try {
            selector.close();
        } catch (IOException e) {
            // nothing is left to use it
        }
    }

    private static void closeQuietly(java.nio.channels.Channel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // closing is all that is left to do with it
        }
    }
}
