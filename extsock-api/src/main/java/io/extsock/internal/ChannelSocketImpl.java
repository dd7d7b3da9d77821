package io.extsock.internal;

import io.extsock.IwarpNegotiationException;
import io.extsock.IwarpOptions;
import io.extsock.spi.AcceptedAhead;
import io.extsock.spi.DeviceSession;
import io.extsock.spi.IwarpSession;
import io.extsock.spi.SocketTransport;
import io.extsock.verbs.IwarpConnection;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketImpl;
import java.net.SocketOption;
import java.net.UnknownHostException;
import java.nio.channels.AlreadyBoundException;
import java.nio.channels.ClosedChannelException;
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

    /** Null until {@link #create} or {@link #acceptedChannel}; guarded by stateLock. */
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
     * @throws IllegalArgumentException for a proxy type this implementation cannot use
     */
    public ChannelSocketImpl(Proxy proxy) {
        if (proxy.type() != Proxy.Type.DIRECT) {
            throw new IllegalArgumentException("ExtendedSocket connects directly only; "
                    + proxy.type() + " proxies are not supported: " + proxy);
        }
        this.mode = new IwarpSwitch(parts, null);
        this.options = new ChannelSocketOptions(parts, mode);
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
            channel = SocketChannel.open();
        }
    }

    /**
     * Makes this impl the accepted end of a connection, as ServerSocket's accept expects of a
     * custom SocketImpl.
     */
    void acceptedChannel(SocketChannel connection, Map<SocketOption<?>, Object> serverIwarpSettings)
            throws IOException {
        try {
            takeAccepted(connection, serverIwarpSettings);
            mode.established(false, connection);
        } catch (IOException | RuntimeException e) {
            connection.close();
            throw e;
        }
        transport = new PassthroughTransport(connection);
        mode.deferToFirstUse();
    }

    /**
     * Makes this impl the accepted end of a connection negotiated before accept ({@link
     * IwarpOptions#NEGOTIATE_BEFORE_ACCEPT}): in IWARP_MODE already, or plain TCP after a
     * fallback, with the octets the peer sent readable first. The server socket's options
     * decided it; no policy is asked.
     */
    void acceptedAhead(AcceptedAhead connection, Map<SocketOption<?>, Object> serverIwarpSettings)
            throws IOException {
        SocketChannel ch = connection.channel();
        try {
            takeAccepted(ch, serverIwarpSettings);
        } catch (IOException | RuntimeException e) {
            connection.discard();
            throw e;
        }
        if (connection.session() != null) {
            transport = connection.session().stream();
        } else {
            transport = PrefixedTransport.of(new PassthroughTransport(ch), connection.fellBack().receivedOctets());
        }
        mode.acceptedAhead(connection);
    }

    /** Makes this impl the accepted end of a connection on an RDMA device; its channel, never connected, carries nothing. */
    void acceptedOnDevice(DeviceSession connection, Map<SocketOption<?>, Object> serverIwarpSettings) throws IOException {
        try {
            synchronized (stateLock) {
                if (channel != null || closed) {
                    throw new SocketException("Not a newly created SocketImpl");
                }
                channel = SocketChannel.open();
                accepted = true;
                address = connection.remoteAddress().getAddress();
                port = connection.remoteAddress().getPort();
                localport = connection.localAddress().getPort();
                mode.inherit(serverIwarpSettings);
            }
            mode.runOnDevice(connection);
        } catch (IOException | RuntimeException e) {
            connection.stream().close();
            throw e;
        }
    }

    /** Makes {@code connection} this impl's channel, once, as ServerSocket's accept expects of a new SocketImpl. */
    private void takeAccepted(SocketChannel connection, Map<SocketOption<?>, Object> serverIwarpSettings)
            throws IOException {
        synchronized (stateLock) {
            if (channel != null || closed) {
                throw new SocketException("Not a newly created SocketImpl");
            }
            InetSocketAddress remote = (InetSocketAddress) connection.getRemoteAddress();
            int local = ((InetSocketAddress) connection.getLocalAddress()).getPort();
            channel = connection;
            this.accepted = true;
            address = remote.getAddress();
            port = remote.getPort();
            localport = local;
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
        if (!(remote instanceof InetSocketAddress)) {
            throw new IOException("Unsupported address type");
        }
        InetSocketAddress isa = (InetSocketAddress) remote;
        if (isa.isUnresolved()) {
            throw new UnknownHostException(isa.getHostName());
        }
        InetAddress target = isa.getAddress();
        if (target.isAnyLocalAddress()) {
            target = InetAddress.getLocalHost();
        }
        recipe.connecting(millis);
        SocketChannel ch;
        synchronized (stateLock) {
            ch = openChannel();
            if (ch.isConnected()) {
                throw new SocketException("Already connected");
            }
            address = target;
            port = isa.getPort();
        }
        Optional<InetSocketAddress> onDevice = mode.connectOnDevice(new InetSocketAddress(target, isa.getPort()), millis);
        if (onDevice.isPresent()) {
            localport = onDevice.get().getPort();
            return;
        }
        boolean interrupted = InterruptShield.enter();
        try {
            ConnectRecipe.connectBlocking(ch, new InetSocketAddress(target, isa.getPort()), millis);
            localport = ((InetSocketAddress) ch.getLocalAddress()).getPort();
            transport = new PassthroughTransport(ch);
        } catch (IOException e) {
            close();
            throw SocketErrors.asConnectError(e);
        } finally {
            InterruptShield.exit(interrupted);
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
        return connectedTransport().available();
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
        connectedTransport().shutdownInput();
    }

    @Override
    protected void shutdownOutput() throws IOException {
        connectedTransport().shutdownOutput();
    }

    @Override
    protected boolean supportsUrgentData() {
        return true;
    }

    /** Out-of-band data exists only in TCP; in IWARP_MODE the byte stream is RDMAP Sends. */
    @Override
    protected void sendUrgentData(int data) throws IOException {
        connectedTransport();
        if (mode.iwarpMode()) {
            throw new SocketException("Urgent data not supported in IWARP_MODE");
        }
        boolean interrupted = InterruptShield.enter();
        SocketChannel ch = openChannel();
        try {
            ch.socket().sendUrgentData(data);
        } catch (ClosedChannelException e) {
            if (ch.isOpen()) {
                // The channel refuses it after shutdownOutput; the JDK's reaches TCP: EPIPE.
                IOException pipe = new IOException(SocketErrors.BROKEN_PIPE);
                pipe.initCause(e);
                throw pipe;
            }
            throw SocketErrors.asSocketError(e);
        } catch (SocketException | InterruptedIOException e) {
            throw e;
        } catch (IOException e) {
            if ("Socket buffer full".equals(e.getMessage())) {
                throw new SocketException("No buffer space available");  // NioSocketImpl's words
            }
            throw e;  // as NioSocketImpl, the system's error as an IOException ("Connection reset by peer")
        } finally {
            InterruptShield.exit(interrupted);
        }
    }

    // ---- options: the legacy int-keyed SocketOptions interface --------------------------

    @Override
    public void setOption(int opt, Object value) throws SocketException {
        options.setLegacy(opt, value);
    }

    @Override
    public Object getOption(int opt) throws SocketException {
        return options.getLegacy(opt);
    }

    // ---- options: the typed SocketOption API, where IWARP_MODE lives -------------------

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

    /**
     * Connects a new channel to the same peer as the first one connected ({@link ConnectRecipe}).
     *
     * @return the new connection's local address
     */
    private InetSocketAddress reconnectPlain(IwarpNegotiationException why) throws IOException {
        SocketChannel fresh = null;
        boolean interrupted = InterruptShield.enter();
        try {
            fresh = recipe.connectAgain(new InetSocketAddress(address, port), options);
            synchronized (stateLock) {
                if (closed) {
                    throw new SocketException(SocketErrors.SOCKET_CLOSED);
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
            IOException failure = SocketErrors.asConnectError(e);
            failure.addSuppressed(why);
            closeOwner(failure);
            throw failure;
        } finally {
            InterruptShield.exit(interrupted);
        }
    }

    /**
     * Why a switch to IWARP_MODE with {@link IwarpOptions#FALLBACK} went on as plain TCP.
     *
     * @return the negotiation failure that showed the peer is not an iWARP peer; empty if no
     *         switch fell back
     */
    public Optional<IwarpNegotiationException> iwarpFallbackCause() {
        return mode.fallbackCause();
    }

    /** Tells this implementation which socket it serves. */
    public void setOwner(java.net.Socket socket) {
        this.owner = socket;
    }

    private void closeOwner(Exception failure) {
        try {
            java.net.Socket socket = owner;
            if (socket != null) {
                socket.close();
            } else {
                close();
            }
        } catch (IOException closeFailure) {
            failure.addSuppressed(closeFailure);
        }
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
        mode.completePending();
        IwarpSession current = mode.session();
        if (current == null) {
            throw new SocketException("the socket is not in IWARP_MODE: set IwarpOptions.IWARP_MODE to true first");
        }
        return current.connection();
    }

    /** Whether this side connected (true) or accepted (false) the connection. */
    private boolean localIsInitiator() {
        return !accepted;
    }

    // ---- helpers ------------------------------------------------------------------------

    private SocketChannel openChannel() throws SocketException {
        if (closed) {
            throw new SocketException(SocketErrors.SOCKET_CLOSED);
        }
        if (channel == null) {
            throw new SocketException("Socket not created");
        }
        return channel;
    }

    private SocketChannel openChannelForOption() throws SocketException {
        synchronized (stateLock) {
            return openChannel();
        }
    }

    private SocketTransport connectedTransport() throws IOException {
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

    /** What the socket's parts (its switch, options and streams) ask of it. */
    private final class Parts implements IwarpSwitch.Socket, ChannelSocketOptions.Socket, SocketStreams.Socket {
        @Override
        public SocketChannel channel() throws SocketException {
            return openChannelForOption();
        }

        @Override
        public boolean initiator() {
            return localIsInitiator();
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
        public InetSocketAddress reconnectPlain(IwarpNegotiationException why) throws IOException {
            return ChannelSocketImpl.this.reconnectPlain(why);
        }

        @Override
        public SocketTransport connectedTransport() throws IOException {
            return ChannelSocketImpl.this.connectedTransport();
        }

        @Override
        public int timeout() {
            return options.timeout();
        }

        @Override
        public int available() throws IOException {
            return ChannelSocketImpl.this.available();
        }

        @Override
        public void close() throws IOException {
            ChannelSocketImpl.this.close();
        }

        @Override
        public void closeOwner(Exception failure) {
            ChannelSocketImpl.this.closeOwner(failure);
        }
    }
}
