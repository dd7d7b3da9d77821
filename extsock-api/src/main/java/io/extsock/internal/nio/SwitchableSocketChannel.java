package io.extsock.internal.nio;

import io.extsock.IwarpNegotiationException;
import io.extsock.IwarpOptions;
import io.extsock.ExtendedSocketChannel;
import io.extsock.internal.IwarpSwitch;
import io.extsock.spi.Readiness;
import io.extsock.spi.SocketTransport;
import io.extsock.verbs.IwarpConnection;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.SelectorProvider;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An {@link ExtendedSocketChannel}: plain TCP through the JDK's socket channel underneath until
 * IWARP_MODE switches it, then the iWARP stream through the same {@link IwarpSwitch} as {@code
 * ExtendedSocket}'s, with its selectors following the session's readiness ({@link
 * ChannelEvents}).
 *
 * <p>In passthrough every call goes to the JDK's channel. A blocking call runs between {@link
 * #begin} and {@link #end}, so that an interrupt or an asynchronous close ends it as it ends the
 * JDK's and closes this channel too; a non-blocking call does not block, and skips them as the
 * JDK's does. In IWARP_MODE reads and writes go to the stream ({@link IwarpChannelIo}).
 *
 * <p>When it switches: when IWARP_MODE is set on it connected, at its connect (in non-blocking
 * mode, in the {@code finishConnect} that finds TCP connected) when set before, and at its
 * first read, write or {@link #iwarp} when accepted by an IWARP_MODE server channel. The switch
 * blocks for the MPA negotiation, a round trip. With FALLBACK and a plain peer it goes on as
 * plain TCP: over a new connection as initiator ({@link #reconnectPlain}), over the same one as
 * responder, what the engine read first ({@link #carryOnPlain}).
 */
public final class SwitchableSocketChannel extends ExtendedSocketChannel
        implements PlatformBacked, IwarpSwitch.Socket {

    /** The JDK's channel now: a fallback's reconnect replaces it. */
    private volatile SocketChannel platform;
    private final PlatformKeys platformKeys = new PlatformKeys();
    private final IwarpSwitch mode = new IwarpSwitch(this, ChannelPolicies.forNewChannel());
    private final Socket adaptor;
    private final ChannelEvents events = new ChannelEvents();
    /** Whether this end accepted the connection (the MPA responder). */
    private final boolean accepted;
    /** The stream's reads and writes once switched; null in passthrough. */
    private volatile IwarpChannelIo iwarp;
    /** Where it connected: a fallback connects there again. */
    private volatile SocketAddress remote;
    /** After a responder's fallback: what the engine read from the plain peer, read first. */
    private final FallbackPrefix prefix = new FallbackPrefix(events);
    private volatile boolean inputShut;
    private volatile boolean outputShut;

    /**
     * A channel on a channel of the JDK's, plain TCP until it switches.
     *
     * @param provider the provider that made it
     * @param platform the JDK's channel it runs on, which it owns from now on
     */
    public SwitchableSocketChannel(SelectorProvider provider, SocketChannel platform) {
        this(provider, platform, false);
    }

    SwitchableSocketChannel(SelectorProvider provider, SocketChannel platform, boolean accepted) {
        super(provider);
        this.platform = platform;
        this.accepted = accepted;
        this.adaptor = ChannelSocketAdaptor.of(this);
    }

    /** An accepted connection of a server channel with these iWARP options: it switches on first use. */
    void acceptedWith(Map<SocketOption<?>, Object> serverIwarpSettings) throws IOException {
        mode.inherit(serverIwarpSettings);
        mode.established(false, platform);
        mode.deferToFirstUse();
    }

    @Override
    public Optional<IwarpNegotiationException> iwarpFallbackCause() {
        return mode.fallbackCause();
    }

    @Override
    public IwarpConnection iwarp() throws IOException {
        ensureOpen();
        iwarpIo();  // an accepted connection's first use: its switch
        return mode.connection();
    }

    // ---- IwarpSwitch.Socket -------------------------------------------------------------

    @Override
    public SocketChannel channel() {
        return platform;
    }

    @Override
    public SocketTransport transport() {
        IwarpChannelIo current = iwarp;
        return current == null ? null : current.stream();
    }

    @Override
    public boolean connected() {
        return platform.isConnected();
    }

    @Override
    public void carryOn(SocketTransport transport) {
        iwarp = new IwarpChannelIo(transport, this::close);
    }

    /** An initiator's fallback ({@link PlainReconnect}): selectors watch the new connection from their next selection. */
    @Override
    public InetSocketAddress reconnectPlain(IwarpNegotiationException why) throws IOException {
        try {
            platform = PlainReconnect.to(remote, isBlocking(), mode.applicationNoDelay());
        } catch (IOException e) {
            e.addSuppressed(why);
            closeOwner(e);
            throw e;
        }
        events.platformReplaced();
        return (InetSocketAddress) platform.getLocalAddress();
    }

    /** A responder's fallback: plain TCP from now on, what the engine read from the peer first. */
    @Override
    public void carryOnPlain(byte[] receivedOctets) {
        prefix.set(receivedOctets);
    }

    @Override
    public void closeOwner(Exception failure) {
        try {
            close();
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }

    /** After a switch was asked for: once it happened, the selectors follow the session. */
    private void afterSwitch() {
        if (iwarp != null && mode.session() != null) {
            events.switched(mode.session().readiness());
        }
    }

    /** Completes a switch deferred to first use (an accepted connection); returns the stream's I/O, or null. */
    private IwarpChannelIo iwarpIo() throws IOException {
        IwarpChannelIo current = iwarp;
        if (current == null && accepted) {
            mode.completePending();
            afterSwitch();
            current = iwarp;
        }
        return current;
    }

    // ---- PlatformBacked ------------------------------------------------------------------

    @Override
    public SelectableChannel platformChannel() {
        return platform;
    }

    @Override
    public void watchedBy(SelectionKey platformKey) {
        platformKeys.add(platformKey);
    }

    @Override
    public EventReadiness events() {
        return events;
    }

    // ---- SocketChannel ------------------------------------------------------------------

    @Override
    public SocketChannel bind(SocketAddress local) throws IOException {
        platform.bind(local);
        return this;
    }

    @Override
    public <T> SocketChannel setOption(SocketOption<T> name, T value) throws IOException {
        if (IwarpOptions.ALL.contains(name)) {
            ensureOpen();
            mode.set(name, value, !accepted);
            afterSwitch();
            return this;
        }
        if (name == StandardSocketOptions.TCP_NODELAY && mode.setNoDelay((Boolean) value)) {
            return this;
        }
        platform.setOption(name, value);
        return this;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getOption(SocketOption<T> name) throws IOException {
        if (IwarpOptions.ALL.contains(name)) {
            ensureOpen();
            return mode.get(name);
        }
        if (name == StandardSocketOptions.TCP_NODELAY && mode.iwarpMode()) {
            return (T) Boolean.valueOf(mode.applicationNoDelay());
        }
        return platform.getOption(name);
    }

    /** The JDK channel's options and {@link IwarpOptions#ALL}. */
    @Override
    public Set<SocketOption<?>> supportedOptions() {
        return ChannelOptions.withIwarp(platform.supportedOptions());
    }

    @Override
    public SocketChannel shutdownInput() throws IOException {
        IwarpChannelIo current = iwarp;
        if (current != null) {
            ensureOpen();
            current.stream().shutdownInput();
        } else {
            platform.shutdownInput();
        }
        inputShut = true;
        return this;
    }

    @Override
    public SocketChannel shutdownOutput() throws IOException {
        IwarpChannelIo current = iwarp;
        if (current != null) {
            ensureOpen();
            current.stream().shutdownOutput();
        } else {
            platform.shutdownOutput();
        }
        outputShut = true;
        return this;
    }

    /** The JDK adaptor's, but for the shutdowns, options and close, which are this channel's. */
    @Override
    public Socket socket() {
        return adaptor;
    }

    /** Whether the connection switched to IWARP_MODE: its bytes go through the iWARP stream. */
    boolean switched() {
        return iwarp != null;
    }

    /** Whether {@link #shutdownInput} ran: in IWARP_MODE the TCP connection under it stays up. */
    boolean inputShut() {
        return inputShut;
    }

    /** Whether {@link #shutdownOutput} ran: in IWARP_MODE the TCP connection under it stays up. */
    boolean outputShut() {
        return outputShut;
    }

    @Override
    public boolean isConnected() {
        return platform.isConnected();
    }

    @Override
    public boolean isConnectionPending() {
        return platform.isConnectionPending();
    }

    @Override
    public boolean connect(SocketAddress remote) throws IOException {
        this.remote = remote;
        boolean connected = isBlocking() ? blocking(() -> platform.connect(remote)) : platform.connect(remote);
        if (connected) {
            switchAsAsked();
        }
        return connected;
    }

    @Override
    public boolean finishConnect() throws IOException {
        boolean connected = isBlocking() ? blocking(platform::finishConnect) : platform.finishConnect();
        if (connected && iwarp == null) {
            switchAsAsked();
        }
        return connected;
    }

    /** TCP connected: IWARP_MODE set before connect switches now, as the MPA initiator. */
    private void switchAsAsked() throws IOException {
        mode.established(true, platform);
        mode.switchIfRequested(true, true);
        afterSwitch();
    }

    @Override
    public SocketAddress getRemoteAddress() throws IOException {
        return platform.getRemoteAddress();
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        IwarpChannelIo stream = iwarpIo();
        if (stream != null) {
            return (int) onStream(true, () -> stream.read(dst, isBlocking()));
        }
        if (prefix.pending()) {
            long fromPrefix = prefix.read(new ByteBuffer[] {dst}, 0, 1);
            if (fromPrefix >= 0) {
                return (int) fromPrefix;
            }
        }
        return isBlocking() ? blocking(() -> platform.read(dst)) : platform.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, dsts.length);
        IwarpChannelIo stream = iwarpIo();
        if (stream != null) {
            return onStream(true, () -> stream.read(dsts, offset, length, isBlocking()));
        }
        if (prefix.pending()) {
            long fromPrefix = prefix.read(dsts, offset, length);
            if (fromPrefix >= 0) {
                return fromPrefix;
            }
        }
        return isBlocking() ? blocking(() -> platform.read(dsts, offset, length))
                : platform.read(dsts, offset, length);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        IwarpChannelIo stream = iwarpIo();
        if (stream != null) {
            return (int) onStream(false, () -> stream.write(src, isBlocking()));
        }
        return isBlocking() ? blocking(() -> platform.write(src)) : platform.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, srcs.length);
        IwarpChannelIo stream = iwarpIo();
        if (stream != null) {
            return onStream(false, () -> stream.write(srcs, offset, length, isBlocking()));
        }
        return isBlocking() ? blocking(() -> platform.write(srcs, offset, length))
                : platform.write(srcs, offset, length);
    }

    /** A call that may block on the JDK's channel, or a read or write on the stream. */
    private interface Call<T> {
        T run() throws IOException;
    }

    /**
     * A blocking call on the JDK's channel, between {@link #begin} and {@link #end}: an interrupt
     * or an asynchronous close ends it as the JDK's, and closes this channel too.
     */
    private <T> T blocking(Call<T> call) throws IOException {
        boolean completed = false;
        try {
            begin();
            T result = call.run();
            completed = true;
            return result;
        } catch (ClosedByInterruptException e) {
            completed = true;  // ended as the JDK's call ended: no AsynchronousCloseException from end()
            close();  // the interrupt closed the JDK's channel: this one goes with it
            throw e;
        } finally {
            end(completed);
        }
    }

    /**
     * A read or write on the iWARP stream: refused on a closed channel, the end of stream after
     * shutdownInput, ClosedChannelException after shutdownOutput, as a channel says them.
     */
    private long onStream(boolean read, Call<? extends Number> call) throws IOException {
        ensureOpen();
        if (read && inputShut) {
            return -1;
        }
        if (!read && outputShut) {
            throw new ClosedChannelException();
        }
        try {
            return call.run().longValue();
        } catch (SocketException e) {
            throw closedMeanwhile(e);
        }
    }

    /** A stream call failed: if this channel closed meanwhile, as a channel says it. */
    private IOException closedMeanwhile(SocketException e) {
        return isOpen() ? e : new AsynchronousCloseException();
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!isOpen()) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public SocketAddress getLocalAddress() throws IOException {
        return platform.getLocalAddress();
    }

    @Override
    protected void implCloseSelectableChannel() throws IOException {
        mode.socketClosing();
        IwarpChannelIo current = iwarp;
        try {
            if (current != null) {
                current.stream().close();
            }
        } finally {
            platform.close();
        }
    }

    @Override
    protected void implConfigureBlocking(boolean block) throws IOException {
        if (iwarp != null) {
            return;  // the engine owns the JDK's channel; blocking is this channel's own way of reading now
        }
        if (block) {
            platformKeys.cancelAll();  // only cancelled keys of ours are left (the caller checked)
        }
        platform.configureBlocking(block);
    }

    /** As the JDK's channel describes itself ({@code java.nio.channels.SocketChannel[connected local=...]}). */
    @Override
    public String toString() {
        return platform.toString();
    }
}
