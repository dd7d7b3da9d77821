package io.extsock.internal;

import io.extsock.IwarpNegotiationException;
import io.extsock.IwarpOptions;
import io.extsock.internal.nio.PlatformProvider;
import io.extsock.spi.AcceptedAhead;
import io.extsock.spi.DeviceSession;
import io.extsock.spi.SocketTransport;
import io.extsock.verbs.IwarpConnection;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketImpl;
import java.net.SocketOption;
import java.nio.channels.AlreadyBoundException;
import java.nio.channels.SocketChannel;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@link SocketImpl} behind every {@link io.extsock.ExtendedSocket}: it owns a {@link
 * SocketChannel} and does its I/O through it.
 *
 * <p>Why a SocketImpl: {@code java.net.Socket} keeps the socket's state and checks (closed,
 * connected, shut down), its stream caching and its messages itself and calls its SocketImpl
 * only for the operations. Plugging in here keeps all of that the JDK's own, on every JDK
 * version, and leaves us the one thing we need: a channel that the iWARP engine can take over
 * in non-blocking mode when the connection switches to IWARP_MODE.
 *
 * <p>Where the JDK's platform implementation (NioSocketImpl) raises an error, this class
 * raises the same class with the same message.
 */
public final class ChannelSocketImpl extends SocketImpl {

    private final Object stateLock = new Object();

    /** Null until {@link #create} or {@link #accepted}; guarded by stateLock. */
    private SocketChannel channel;
    private volatile boolean closed;
    private boolean accepted;

    /** Carries the stream once connected: passthrough first, maybe iWARP later. */
    private volatile SocketTransport transport;
    /** The socket as its parts see it. */
    private final Parts parts = new Parts();
    /** Passthrough, or IWARP_MODE once switched: the iWARP options, the switch and its fallback. */
    private final IwarpSwitch mode;
    /** The socket's streams, over whatever transport carries the stream now. */
    private final SocketStreams streams = new SocketStreams(parts);
    /** The socket this implementation serves: a failed switch closes it, not just the channel. */
    private volatile java.net.Socket owner;

    /** How the socket connected, for a fallback's reconnect. */
    private final ConnectRecipe recipe = new ConnectRecipe();
    /** The socket's options, both APIs: TCP's to the channel, the iWARP ones to {@link #mode}. */
    private final ChannelSocketOptions options;

    /** An implementation that connects directly. */
    public ChannelSocketImpl() {
        this.mode = new IwarpSwitch(parts, null);
        this.options = new ChannelSocketOptions(parts, mode);
    }

    /**
     * An implementation that connects directly and lets the policy decide, once the connection
     * is established, whether it switches to IWARP_MODE (see {@link ConnectionPolicy}).
     *
     * @param policy asked once per connection, told its outcome once
     */
    public ChannelSocketImpl(ConnectionPolicy policy) {
        this.mode = new IwarpSwitch(parts, Objects.requireNonNull(policy, "policy"));
        this.options = new ChannelSocketOptions(parts, mode);
    }

    /**
     * An implementation that connects through the given proxy.
     *
     * @throws IllegalArgumentException for no proxy, or a proxy type this implementation cannot use
     */
    public ChannelSocketImpl(Proxy proxy) {
        this();
        if (proxy == null) {
            throw new IllegalArgumentException("Invalid Proxy");
        }
        if (proxy.type() != Proxy.Type.DIRECT) {
            throw new IllegalArgumentException("ExtendedSocket connects directly only; "
                    + proxy.type() + " proxies are not supported: " + proxy);
        }
    }

    @Override
    protected void create(boolean stream) throws IOException {
        if (!stream) {
            throw new IOException("Datagram socket creation not supported");
        }
        synchronized (stateLock) {
            if (channel != null || closed) {
                throw new IOException("Already created");
            }
            channel = PlatformProvider.get().openSocketChannel();
        }
    }

    /**
     * Makes this impl the accepted end of a connection, as ServerSocket's accept expects of a
     * custom SocketImpl, with the iWARP options of the server socket that accepted it. A
     * connection negotiated before accept ({@link IwarpOptions#NEGOTIATE_BEFORE_ACCEPT}) comes
     * with {@code ahead}: in IWARP_MODE already, or plain TCP after a fallback with the octets the
     * peer sent readable first; the server socket's options decided it, and no policy is asked.
     * Any other connection asks the policy, if any, and switches on first use if IWARP_MODE is set.
     *
     * @param ahead how the connection was negotiated before accept; null if it was not
     */
    void accepted(SocketChannel connection, AcceptedAhead ahead, Map<SocketOption<?>, Object> serverIwarpSettings)
            throws IOException {
        try {
            takeAccepted(connection, (InetSocketAddress) connection.getRemoteAddress(),
                    ((InetSocketAddress) connection.getLocalAddress()).getPort(), serverIwarpSettings);
            if (ahead == null) {
                mode.established(false, connection);
            }
        } catch (IOException | RuntimeException e) {
            if (ahead != null) {
                ahead.discard();
            } else {
                connection.close();
            }
            throw e;
        }
        if (ahead == null) {
            transport = new PassthroughTransport(connection);
            mode.deferToFirstUse();
        } else {
            transport = ahead.session() != null ? ahead.session().stream()
                    : PrefixedTransport.of(new PassthroughTransport(connection), ahead.fellBack().receivedOctets());
            mode.acceptedAhead(ahead);
        }
    }

    /** Makes this impl the accepted end of a connection on an RDMA device; its channel, never connected, carries nothing. */
    void acceptedOnDevice(DeviceSession connection, Map<SocketOption<?>, Object> serverIwarpSettings) throws IOException {
        try {
            takeAccepted(PlatformProvider.get().openSocketChannel(), connection.remoteAddress(), connection.localAddress().getPort(),
                    serverIwarpSettings);
            mode.runOnDevice(connection);
        } catch (IOException | RuntimeException e) {
            connection.stream().close();
            throw e;
        }
    }

    /** Makes this new impl the accepted end of a connection, once, as ServerSocket's accept expects. */
    private void takeAccepted(SocketChannel connection, InetSocketAddress remote, int localPort,
                              Map<SocketOption<?>, Object> serverIwarpSettings) throws SocketException {
        synchronized (stateLock) {
            if (channel != null || closed) {
                throw new SocketException("Not a newly created SocketImpl");
            }
            channel = connection;
            accepted = true;
            address = remote.getAddress();
            port = remote.getPort();
            localport = localPort;
            mode.inherit(serverIwarpSettings);
        }
    }

    @Override
    protected void connect(String host, int port) throws IOException {
        connect(new InetSocketAddress(host, port), 0);
    }

    @Override
    protected void connect(InetAddress address, int port) throws IOException {
        connect(new InetSocketAddress(address, port), 0);
    }

    @Override
    protected void connect(SocketAddress remote, int millis) throws IOException {
        InetSocketAddress target = recipe.connecting(remote, millis);
        SocketChannel ch;
        synchronized (stateLock) {
            ch = openChannel();
            if (ch.isConnected()) {
                throw new SocketException("Already connected");
            }
            address = target.getAddress();
            port = target.getPort();
        }
        Optional<InetSocketAddress> onDevice = mode.connectOnDevice(target, millis);
        if (onDevice.isPresent()) {
            localport = onDevice.get().getPort();
            return;
        }
        try {
            ConnectRecipe.connectBlocking(ch, target, millis);
            localport = ((InetSocketAddress) ch.getLocalAddress()).getPort();
            transport = new PassthroughTransport(ch);
        } catch (IOException e) {
            close();
            throw SocketErrors.asConnectError(e);
        }
        try {
            mode.established(true, ch);
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
        mode.switchIfRequested(true, true);  // nothing was read or written yet
    }

    @Override
    protected void bind(InetAddress host, int port) throws IOException {
        synchronized (stateLock) {
            SocketChannel ch = openChannel();
            if (localport != 0) {
                throw new SocketException("Already bound");
            }
            try {
                ch.bind(new InetSocketAddress(host, port));
            } catch (AlreadyBoundException e) {
                throw new SocketException("Already bound");
            }
            address = host;
            recipe.bound(host);
            localport = ((InetSocketAddress) ch.getLocalAddress()).getPort();
        }
    }

    @Override
    protected void listen(int backlog) throws IOException {
        throw new SocketException("Not a server socket");
    }

    @Override
    protected void accept(SocketImpl s) throws IOException {
        throw new SocketException("Not a server socket");
    }

    @Override
    protected InputStream getInputStream() throws IOException {
        return streams.input();
    }

    @Override
    protected OutputStream getOutputStream() throws IOException {
        return streams.output();
    }

    @Override
    protected int available() throws IOException {
        return parts.connectedTransport().available();
    }

    @Override
    protected void close() throws IOException {
        SocketTransport current;
        SocketChannel ch;
        synchronized (stateLock) {
            if (closed) {
                return;
            }
            closed = true;
            current = transport;
            ch = channel;
        }
        mode.socketClosing();
        if (current != null) {
            current.close();
        } else if (ch != null) {
            ch.close();
        }
    }

    @Override
    protected void shutdownInput() throws IOException {
        parts.connectedTransport().shutdownInput();
    }

    @Override
    protected void shutdownOutput() throws IOException {
        parts.connectedTransport().shutdownOutput();
    }

    @Override
    protected boolean supportsUrgentData() {
        return true;
    }

    /** Out-of-band data exists only in TCP; in IWARP_MODE the byte stream is RDMAP Sends. */
    @Override
    protected void sendUrgentData(int data) throws IOException {
        parts.connectedTransport();
        if (mode.iwarpMode()) {
            throw new SocketException("Urgent data not supported in IWARP_MODE");
        }
        UrgentData.send(openChannel(), data);
    }

    // ---- options, both APIs: the legacy int-keyed one and the typed one, where IWARP_MODE lives

    @Override
    public void setOption(int opt, Object value) throws SocketException {
        options.setLegacy(opt, value);
    }

    @Override
    public Object getOption(int opt) throws SocketException {
        return options.getLegacy(opt);
    }

    @Override
    protected Set<SocketOption<?>> supportedOptions() {
        return ChannelSocketOptions.supported();
    }

    @Override
    protected <T> void setOption(SocketOption<T> option, T value) throws IOException {
        options.set(option, value);
    }

    @Override
    protected <T> T getOption(SocketOption<T> option) throws IOException {
        return options.get(option);
    }

    // ---- the extended side, for ExtendedSocket ------------------------------------------

    /**
     * Why a switch to IWARP_MODE with {@link IwarpOptions#FALLBACK} went on as plain TCP.
     *
     * @return the negotiation failure that showed the peer is not an iWARP peer; empty if no
     *         switch fell back
     */
    public Optional<IwarpNegotiationException> iwarpFallbackCause() {
        return mode.fallbackCause();
    }

    /** Tells this implementation which socket it serves: a failed switch closes it, not just the channel. */
    public void setOwner(java.net.Socket socket) {
        this.owner = socket;
    }

    /**
     * The extended side of the connection.
     *
     * @throws SocketException if the socket is closed or not in IWARP_MODE
     */
    public IwarpConnection iwarpConnection() throws IOException {
        if (closed) {
            throw new SocketException(SocketErrors.SOCKET_CLOSED);
        }
        return mode.connection();
    }

    private SocketChannel openChannel() throws SocketException {
        if (closed) {
            throw new SocketException(SocketErrors.SOCKET_CLOSED);
        }
        if (channel == null) {
            throw new SocketException("Socket not created");
        }
        return channel;
    }

    /** What the socket's parts (its switch, options and streams) ask of it. */
    private final class Parts implements IwarpSwitch.Socket, ChannelSocketOptions.Socket, SocketStreams.Socket {
        @Override
        public SocketChannel channel() throws SocketException {
            synchronized (stateLock) {
                return openChannel();
            }
        }

        @Override
        public boolean initiator() {
            return !accepted;
        }

        @Override
        public SocketTransport transport() {
            return transport;
        }

        @Override
        public void carryOn(SocketTransport next) {
            transport = next;
        }

        @Override
        public SocketTransport connectedTransport() throws IOException {
            if (closed) {
                throw new SocketException(SocketErrors.SOCKET_CLOSED);
            }
            mode.completePending();
            SocketTransport current = transport;
            if (current == null) {
                throw new SocketException(SocketErrors.NOT_CONNECTED);
            }
            return current;
        }

        /** The socket goes on over a new channel to the same peer ({@link ConnectRecipe}); on failure it closes. */
        @Override
        public InetSocketAddress reconnectPlain(IwarpNegotiationException why) throws IOException {
            SocketChannel fresh = null;
            try {
                fresh = recipe.connectAgain(options, why);
                synchronized (stateLock) {
                    if (closed) {
                        SocketException closedMeanwhile = new SocketException(SocketErrors.SOCKET_CLOSED);
                        closedMeanwhile.addSuppressed(why);
                        throw closedMeanwhile;
                    }
                    channel = fresh;
                    InetSocketAddress reconnected = (InetSocketAddress) fresh.getLocalAddress();
                    localport = reconnected.getPort();
                    transport = new PassthroughTransport(fresh);
                    return reconnected;
                }
            } catch (IOException e) {
                if (fresh != null) {
                    fresh.close();
                }
                closeOwner(e);
                throw e;
            }
        }

        @Override
        public int timeout() {
            return options.timeout();
        }

        @Override
        public void close() throws IOException {
            ChannelSocketImpl.this.close();
        }

        @Override
        public void closeOwner(Exception failure) {
            java.net.Socket socket = owner;
            CloseAfterFailure.close(socket != null ? socket : ChannelSocketImpl.this::close, failure);
        }
    }
}
