package io.extsock.internal;

import io.extsock.IwarpNegotiationException;
import io.extsock.IwarpOptions;
import io.extsock.spi.AcceptedAhead;
import io.extsock.spi.IwarpSession;
import io.extsock.spi.NotAnIwarpPeerException;
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
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.channels.AlreadyBoundException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
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
    /** TCP_NODELAY as the application set it; in IWARP_MODE the engine keeps the real one on. */
    private volatile boolean applicationNoDelay;
    /** The iWARP session once the connection switched; null in passthrough. */
    private volatile IwarpSession session;
    private volatile boolean iwarpMode;
    /** An accepted connection of an IWARP_MODE server socket, to switch on its first use. */
    private volatile boolean switchPending;
    /** A ReentrantLock, not a monitor: the switch does blocking I/O, and a virtual thread must not pin. */
    private final java.util.concurrent.locks.ReentrantLock switchLock = new java.util.concurrent.locks.ReentrantLock();
    /** The socket this implementation serves: a failed switch closes it, not just the channel. */
    private volatile java.net.Socket owner;
    private volatile int timeout;
    /** A read returned end of stream: later reads return it too, even after close (as Socket's). */
    private volatile boolean endOfStreamRead;

    /** Why a switch with IwarpOptions.FALLBACK went on as plain TCP; null if none did. */
    private volatile IwarpNegotiationException fallbackCause;
    /** The local address the application bound to, null if none: a fallback's reconnect binds it again. */
    private volatile InetAddress boundAddress;
    /** The connect's timeout, for a fallback's reconnect. */
    private volatile int connectMillis;
    /** Channel options as the application set them, for a fallback's new channel (SO_OOBINLINE aside). */
    private final Map<SocketOption<?>, Object> channelOptionsSet =
            Collections.synchronizedMap(new LinkedHashMap<>());
    /** SO_OOBINLINE as the application set it, null if it did not: only the channel's adaptor has it. */
    private volatile Boolean oobInlineSet;

    /** iWARP options set before the switch; handed to the engine when it takes over. */
    private final Map<SocketOption<?>, Object> iwarpSettings =
            Collections.synchronizedMap(new LinkedHashMap<>());

    private static volatile Set<SocketOption<?>> supportedOptions;

    /** Decides each connection's mode for a program unaware of extsock (the agent); or null. */
    private final ConnectionPolicy policy;
    /** The policy asked for a switch whose outcome it has not heard yet. */
    private final java.util.concurrent.atomic.AtomicBoolean policyOutcomePending =
            new java.util.concurrent.atomic.AtomicBoolean();

    /** An implementation that connects directly. */
    public ChannelSocketImpl() {
        this.policy = null;
    }

    /**
     * An implementation that connects directly and lets the policy decide, once the connection
     * is established, whether it switches to IWARP_MODE (see {@link ConnectionPolicy}).
     *
     * @param policy asked once per connection, told its outcome once
     */
    public ChannelSocketImpl(ConnectionPolicy policy) {
        this.policy = Objects.requireNonNull(policy, "policy");
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
        this.policy = null;
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
            applyPolicy(false, connection);
        } catch (IOException | RuntimeException e) {
            connection.close();
            throw e;
        }
        transport = new PassthroughTransport(connection);
        // The responder's negotiation waits for the first use of the socket, on the thread that
        // uses it: accept() never blocks on a slow peer, and a failure reaches that thread.
        switchPending = Boolean.TRUE.equals(iwarpSettings.get(IwarpOptions.IWARP_MODE));
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
            session = connection.session();
            transport = connection.session().stream();
            iwarpMode = true;
        } else {
            fallbackCause = connection.fellBack().negotiationFailure();
            transport = PrefixedTransport.of(new PassthroughTransport(ch), connection.fellBack().receivedOctets());
            iwarpSettings.remove(IwarpOptions.IWARP_MODE);
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
            iwarpSettings.putAll(serverIwarpSettings);
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
        connectMillis = millis;
        SocketChannel ch;
        synchronized (stateLock) {
            ch = openChannel();
            if (ch.isConnected()) {
                throw new SocketException("Already connected");
            }
            address = target;
            port = isa.getPort();
        }
        boolean interrupted = InterruptShield.enter();
        try {
            connectBlocking(ch, new InetSocketAddress(target, isa.getPort()), millis);
            localport = ((InetSocketAddress) ch.getLocalAddress()).getPort();
            transport = new PassthroughTransport(ch);
        } catch (IOException e) {
            close();
            throw SocketErrors.asConnectError(e);
        } finally {
            InterruptShield.exit(interrupted);
        }
        try {
            applyPolicy(true, ch);
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
        switchToIwarpIfRequested(true, true);  // nothing was read or written yet
    }

    /**
     * A blocking connect, as Socket's. Without a timeout, the channel's own connect: one system
     * call, where the adaptor's makes the socket non-blocking, connects, polls and makes it
     * blocking again (six). With one, the adaptor, which times it without a Selector.
     */
    private static void connectBlocking(SocketChannel ch, InetSocketAddress remote, int millis) throws IOException {
        if (millis > 0) {
            ch.socket().connect(remote, millis);
        } else {
            ch.connect(remote);
        }
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
            boundAddress = host;
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
        return new TransportInputStream();
    }

    @Override
    protected OutputStream getOutputStream() throws IOException {
        return new TransportOutputStream();
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
        if (switchPending && !switchLock.isLocked()) {
            // (A switch under way reports its own failure, with the reason.)
            reportPolicyOutcome(ConnectionPolicy.Outcome.FAILED, "closed before its first use, never switched");
        }
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
        if (iwarpMode) {
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
        SocketChannel ch = openChannelForOption();
        try {
            switch (opt) {
                case SO_LINGER: {
                    int seconds;
                    if (value instanceof Boolean && !((Boolean) value)) {
                        seconds = -1;
                    } else {
                        seconds = intValue(value, "SO_LINGER");
                    }
                    setChannelOption(ch, StandardSocketOptions.SO_LINGER, seconds);
                    break;
                }
                case SO_TIMEOUT: {
                    int millis = intValue(value, "SO_TIMEOUT");
                    if (millis < 0) {
                        throw new IllegalArgumentException("timeout < 0");
                    }
                    timeout = millis;
                    break;
                }
                case IP_TOS:
                    setChannelOption(ch, StandardSocketOptions.IP_TOS, intValue(value, "IP_TOS"));
                    break;
                case TCP_NODELAY:
                    setTcpNoDelay(ch, booleanValue(value, "TCP_NODELAY"));
                    break;
                case SO_SNDBUF: {
                    int size = intValue(value, "SO_SNDBUF");
                    if (size <= 0) {
                        throw new SocketException("SO_SNDBUF <= 0");
                    }
                    setChannelOption(ch, StandardSocketOptions.SO_SNDBUF, size);
                    break;
                }
                case SO_RCVBUF: {
                    int size = intValue(value, "SO_RCVBUF");
                    if (size <= 0) {
                        throw new SocketException("SO_RCVBUF <= 0");
                    }
                    setChannelOption(ch, StandardSocketOptions.SO_RCVBUF, size);
                    break;
                }
                case SO_KEEPALIVE:
                    setChannelOption(ch, StandardSocketOptions.SO_KEEPALIVE, booleanValue(value, "SO_KEEPALIVE"));
                    break;
                case SO_OOBINLINE:
                    // Only the channel's adaptor reaches the JDK-internal SO_OOBINLINE option.
                    ch.socket().setOOBInline(booleanValue(value, "SO_OOBINLINE"));
                    oobInlineSet = (Boolean) value;
                    break;
                case SO_REUSEADDR:
                    setChannelOption(ch, StandardSocketOptions.SO_REUSEADDR, booleanValue(value, "SO_REUSEADDR"));
                    break;
                case SO_REUSEPORT:
                    if (!ch.supportedOptions().contains(StandardSocketOptions.SO_REUSEPORT)) {
                        throw new SocketException("SO_REUSEPORT not supported");
                    }
                    setChannelOption(ch, StandardSocketOptions.SO_REUSEPORT, booleanValue(value, "SO_REUSEPORT"));
                    break;
                default:
                    throw new SocketException("Unknown option " + opt);
            }
        } catch (SocketException e) {
            throw e;
        } catch (IllegalArgumentException | IOException e) {
            throw SocketErrors.asOptionError(e);
        }
    }

    @Override
    public Object getOption(int opt) throws SocketException {
        SocketChannel ch = openChannelForOption();
        try {
            switch (opt) {
                case SO_TIMEOUT:
                    return timeout;
                case TCP_NODELAY:
                    return iwarpMode ? applicationNoDelay : ch.getOption(StandardSocketOptions.TCP_NODELAY);
                case SO_OOBINLINE:
                    return ch.socket().getOOBInline();
                case SO_LINGER: {
                    int seconds = ch.getOption(StandardSocketOptions.SO_LINGER);
                    return seconds == -1 ? Boolean.FALSE : (Object) seconds;
                }
                case SO_REUSEADDR:
                    return ch.getOption(StandardSocketOptions.SO_REUSEADDR);
                case SO_BINDADDR: {
                    InetSocketAddress local = (InetSocketAddress) ch.getLocalAddress();
                    return local != null ? local.getAddress() : new InetSocketAddress(0).getAddress();
                }
                case SO_SNDBUF:
                    return ch.getOption(StandardSocketOptions.SO_SNDBUF);
                case SO_RCVBUF:
                    return ch.getOption(StandardSocketOptions.SO_RCVBUF);
                case IP_TOS:
                    return ch.getOption(StandardSocketOptions.IP_TOS);
                case SO_KEEPALIVE:
                    return ch.getOption(StandardSocketOptions.SO_KEEPALIVE);
                case SO_REUSEPORT:
                    if (!ch.supportedOptions().contains(StandardSocketOptions.SO_REUSEPORT)) {
                        throw new SocketException("SO_REUSEPORT not supported");
                    }
                    return ch.getOption(StandardSocketOptions.SO_REUSEPORT);
                default:
                    throw new SocketException("Unknown option " + opt);
            }
        } catch (SocketException e) {
            throw e;
        } catch (IllegalArgumentException | IOException e) {
            throw SocketErrors.asOptionError(e);
        }
    }

    // ---- options: the typed SocketOption API, where IWARP_MODE lives -------------------

    @Override
    protected Set<SocketOption<?>> supportedOptions() {
        Set<SocketOption<?>> options = supportedOptions;
        if (options == null) {
            options = new HashSet<>();
            for (SocketOption<?> option : channelOptions()) {
                // The channel also lists the JDK-internal SO_OOBINLINE, which Socket does not.
                if (!option.name().equals("SO_OOBINLINE")) {
                    options.add(option);
                }
            }
            options.addAll(IwarpOptions.ALL);
            options = Collections.unmodifiableSet(options);
            supportedOptions = options;
        }
        return options;
    }

    @Override
    protected <T> void setOption(SocketOption<T> option, T value) throws IOException {
        if (!supportedOptions().contains(option)) {
            throw new UnsupportedOperationException("'" + option + "' not supported");
        }
        if (!option.type().isInstance(value)) {
            throw new IllegalArgumentException("Invalid value '" + value + "'");
        }
        SocketChannel ch = openChannelForOption();
        if (IwarpOptions.ALL.contains(option)) {
            setIwarpOption(option, value);
            return;
        }
        if (option == StandardSocketOptions.TCP_NODELAY) {
            setTcpNoDelay(ch, (Boolean) value);
            return;
        }
        setChannelOption(ch, option, value);
    }

    /** Sets a channel option and remembers it, for the channel of a fallback's reconnect. */
    private <T> void setChannelOption(SocketChannel ch, SocketOption<T> option, T value) throws IOException {
        ch.setOption(option, value);
        channelOptionsSet.put(option, value);
    }

    /**
     * In IWARP_MODE the engine keeps Nagle's algorithm off, as Linux siw and hardware do: it
     * writes whole FPDUs and batches its own writes, and Nagle would hold back the small credit
     * and Read messages a peer waits for (a stream then crawls at a few MB/s). The application
     * still sees TCP_NODELAY as it set it, as on any socket; it just no longer reaches TCP.
     */
    private void setTcpNoDelay(SocketChannel ch, boolean on) throws IOException {
        if (iwarpMode) {
            applicationNoDelay = on;
            return;
        }
        setChannelOption(ch, StandardSocketOptions.TCP_NODELAY, on);
    }

    @Override
    @SuppressWarnings("unchecked")
    protected <T> T getOption(SocketOption<T> option) throws IOException {
        if (!supportedOptions().contains(option)) {
            throw new UnsupportedOperationException("'" + option + "' not supported");
        }
        SocketChannel ch = openChannelForOption();
        if (option == IwarpOptions.IWARP_MODE) {
            return (T) Boolean.valueOf(iwarpMode || switchPending || Boolean.TRUE.equals(iwarpSettings.get(option)));
        }
        if (IwarpOptions.ALL.contains(option)) {
            T value = IwarpOptionValues.valueIn(iwarpSettings, option);
            return value instanceof byte[] ? (T) ((byte[]) value).clone() : value;
        }
        if (option == StandardSocketOptions.TCP_NODELAY && iwarpMode) {
            return (T) Boolean.valueOf(applicationNoDelay);
        }
        return ch.getOption(option);
    }

    private void setIwarpOption(SocketOption<?> option, Object value) throws IOException {
        if (option == IwarpOptions.IWARP_MODE) {
            boolean on = (Boolean) value;
            if (!on) {
                if (iwarpMode) {
                    throw new SocketException("IWARP_MODE cannot be turned off: the connection runs iWARP");
                }
                iwarpSettings.remove(option);
                return;
            }
            IwarpProviders.require();
            iwarpSettings.put(option, Boolean.TRUE);
            if (transport != null) {
                // An accepted socket still waiting for its deferred switch has carried no stream;
                // any other connected socket may have.
                switchToIwarpIfRequested(localIsInitiator(), switchPending);
            }
            return;
        }
        if (option == IwarpOptions.SPIN_MICROS) {
            setSpinMicros((Integer) value);
            return;
        }
        if (iwarpMode) {
            throw new SocketException(option + " must be set before the switch to IWARP_MODE");
        }
        IwarpOptionValues.validate(option, value);
        iwarpSettings.put(option, value instanceof byte[] ? ((byte[]) value).clone() : value);
    }

    /**
     * SPIN_MICROS is this end's own behaviour, not negotiated: unlike the other iWARP options it
     * may change on a live connection. A switch under way applies it again once its session is
     * up (see {@link #switchToIwarpIfRequested}), so that a value set meanwhile is not lost.
     */
    private void setSpinMicros(int micros) {
        IwarpOptionValues.validate(IwarpOptions.SPIN_MICROS, micros);
        iwarpSettings.put(IwarpOptions.SPIN_MICROS, micros);
        IwarpSession current = session;
        if (current != null) {
            current.spinMicros(micros);
        }
    }

    /**
     * Hands the connection to the iWARP engine when IWARP_MODE was asked for. The engine owns
     * the channel from then on; on failure it has closed it, and so the socket is closed.
     */
    private void switchToIwarpIfRequested(boolean initiator, boolean noEarlierStream) throws IOException {
        switchLock.lock();
        try {
            if (iwarpMode || !Boolean.TRUE.equals(iwarpSettings.get(IwarpOptions.IWARP_MODE))) {
                return;
            }
            SocketChannel ch;
            synchronized (stateLock) {
                ch = openChannel();
            }
            try {
                applicationNoDelay = ch.getOption(StandardSocketOptions.TCP_NODELAY);  // the engine turns it on
                Map<SocketOption<?>, Object> options = new HashMap<>(iwarpSettings);
                if (noEarlierStream) {
                    options.put(IwarpOptionValues.NO_EARLIER_STREAM, Boolean.TRUE);
                } else {
                    // The connection may have carried stream: neither a reconnect nor the octets
                    // read so far could give the application a plain stream without a gap.
                    options.remove(IwarpOptions.FALLBACK);
                }
                IwarpSession attached = IwarpProviders.require().attach(ch, initiator, Map.copyOf(options));
                session = attached;
                Object spin = iwarpSettings.get(IwarpOptions.SPIN_MICROS);
                if (spin != null) {
                    attached.spinMicros((Integer) spin);  // it may have changed since the copy above
                }
                transport = attached.stream();
                iwarpMode = true;
                switchPending = false;
                reportPolicyOutcome(ConnectionPolicy.Outcome.IWARP, "negotiated");
            } catch (NotAnIwarpPeerException plainPeer) {
                switchEndedAsPlainTcp(initiator, plainPeer);
            } catch (IOException | RuntimeException e) {
                switchPending = false;
                reportPolicyOutcome(ConnectionPolicy.Outcome.FAILED, String.valueOf(e));
                closeOwner(e);
                throw e;
            }
        } finally {
            switchLock.unlock();
        }
    }

    /**
     * The switch found a plain TCP peer and the application asked for FALLBACK: the socket goes
     * on as plain TCP, IWARP_MODE off, the cause kept. As responder the engine left the channel
     * open and handed back the octets it read, which come first; as initiator it closed the
     * channel, whose peer had read our MPA Request, so the socket connects again.
     *
     * @throws IOException the reconnect's error; the socket is then closed
     */
    private void switchEndedAsPlainTcp(boolean initiator, NotAnIwarpPeerException plainPeer) throws IOException {
        IwarpNegotiationException why = plainPeer.negotiationFailure();
        fallbackCause = why;
        String detail = why.getMessage();
        if (initiator) {
            try {
                InetSocketAddress reconnectedFrom = reconnectPlain(why);
                // The policy heard of the first connection's addresses; the stream runs on this one.
                detail += "; reconnected from " + SocketAddresses.hostAndPort(reconnectedFrom);
            } catch (IOException e) {
                reportPolicyOutcome(ConnectionPolicy.Outcome.FAILED, "not an iWARP peer (" + why.reason()
                        + "), and the plain reconnect failed: " + e);
                throw e;
            }
        } else {
            transport = PrefixedTransport.of(transport, plainPeer.receivedOctets());
        }
        // Only now: a thread that finds no switch pending uses the transport at once.
        iwarpSettings.remove(IwarpOptions.IWARP_MODE);
        switchPending = false;
        reportPolicyOutcome(ConnectionPolicy.Outcome.FELL_BACK, detail);
    }

    /**
     * Connects a new channel to the same peer, with the options the application set and from
     * the local address it bound (on a new ephemeral port: the old one may linger in TIME_WAIT).
     *
     * @return the new connection's local address
     */
    private InetSocketAddress reconnectPlain(IwarpNegotiationException why) throws IOException {
        SocketChannel fresh = null;
        boolean interrupted = InterruptShield.enter();
        try {
            fresh = SocketChannel.open();
            for (Map.Entry<SocketOption<?>, Object> option : Map.copyOf(channelOptionsSet).entrySet()) {
                setUnchecked(fresh, option.getKey(), option.getValue());
            }
            Boolean oobInline = oobInlineSet;
            if (oobInline != null) {
                fresh.socket().setOOBInline(oobInline);
            }
            InetAddress local = boundAddress;
            if (local != null) {
                fresh.bind(new InetSocketAddress(local, 0));
            }
            connectBlocking(fresh, new InetSocketAddress(address, port), connectMillis);
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

    @SuppressWarnings("unchecked")
    private static <T> void setUnchecked(SocketChannel ch, SocketOption<T> option, Object value) throws IOException {
        ch.setOption(option, (T) value);
    }

    /**
     * Why a switch to IWARP_MODE with {@link IwarpOptions#FALLBACK} went on as plain TCP.
     *
     * @return the negotiation failure that showed the peer is not an iWARP peer; empty if no
     *         switch fell back
     */
    public Optional<IwarpNegotiationException> iwarpFallbackCause() {
        return Optional.ofNullable(fallbackCause);
    }

    /**
     * Asks the policy, if there is one, how the connection just established should run, and
     * takes its iWARP options as if the application had set them.
     */
    private void applyPolicy(boolean initiator, SocketChannel ch) throws IOException {
        if (policy == null) {
            return;
        }
        Map<SocketOption<?>, Object> options = policy.optionsFor(
                (InetSocketAddress) ch.getLocalAddress(), (InetSocketAddress) ch.getRemoteAddress(), initiator);
        for (Map.Entry<SocketOption<?>, Object> option : options.entrySet()) {
            if (!IwarpOptions.ALL.contains(option.getKey()) || !option.getKey().type().isInstance(option.getValue())) {
                throw new IllegalArgumentException("a ConnectionPolicy sets iWARP options only, each with a value of"
                        + " its type, not " + option.getKey() + " = " + option.getValue());
            }
            IwarpOptionValues.validate(option.getKey(), option.getValue());
        }
        iwarpSettings.putAll(options);
        if (Boolean.TRUE.equals(iwarpSettings.get(IwarpOptions.IWARP_MODE))) {
            policyOutcomePending.set(true);
        } else {
            policy.outcome(ConnectionPolicy.Outcome.PLAIN_TCP, "no switch asked for");
        }
    }

    /** Tells the policy, once, how the switch it asked for turned out. */
    private void reportPolicyOutcome(ConnectionPolicy.Outcome outcome, String detail) {
        if (policyOutcomePending.compareAndSet(true, false)) {
            policy.outcome(outcome, detail);
        }
    }

    /** Completes the deferred switch of an accepted connection, once, on first use. */
    private void completePendingSwitch() throws IOException {
        if (switchPending) {
            switchToIwarpIfRequested(false, true);  // accepted by an IWARP_MODE server: no stream yet
        }
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
        completePendingSwitch();
        IwarpSession current = session;
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
        completePendingSwitch();
        SocketTransport current = transport;
        if (current == null) {
            throw new SocketException(SocketErrors.NOT_CONNECTED);
        }
        return current;
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
        closeOwner(closed);
        return closed;
    }

    private static Set<SocketOption<?>> channelOptions() {
        try (SocketChannel probe = SocketChannel.open()) {
            return probe.supportedOptions();
        } catch (IOException e) {
            throw new IllegalStateException("cannot open a socket channel to list its options", e);
        }
    }

    private static int intValue(Object value, String name) throws SocketException {
        if (!(value instanceof Integer)) {
            throw new SocketException("Bad value for " + name);
        }
        return (Integer) value;
    }

    private static boolean booleanValue(Object value, String name) throws SocketException {
        if (!(value instanceof Boolean)) {
            throw new SocketException("Bad value for " + name);
        }
        return (Boolean) value;
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
                n = connectedTransport().read(b, off, len, timeout);
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
            return ChannelSocketImpl.this.available();
        }

        @Override
        public void close() throws IOException {
            ChannelSocketImpl.this.close();
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
                connectedTransport().write(b, off, len);
            } catch (IOException e) {
                throw closedByInterrupt(e);
            }
        }

        @Override
        public void close() throws IOException {
            ChannelSocketImpl.this.close();
        }
    }
}
