package io.extsock.internal;

import io.extsock.IwarpOptions;
import io.extsock.internal.nio.PlatformProvider;
import io.extsock.spi.AcceptedAhead;
import io.extsock.spi.DeviceAcceptor;
import io.extsock.spi.IwarpAcceptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketImpl;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The {@link SocketImpl} behind every {@link io.extsock.ExtendedServerSocket}: a {@link
 * ServerSocketChannel} whose accepted channels become {@link ChannelSocketImpl}s. As with the
 * client side, {@code java.net.ServerSocket} keeps its own state, checks and messages.
 */
public final class ChannelServerSocketImpl extends SocketImpl {

    private static final int DEFAULT_BACKLOG = 50;

    private final Object stateLock = new Object();
    private ServerSocketChannel channel;
    private volatile boolean closed;
    private volatile int timeout;

    /** Bound address, kept between bind() and listen(): a channel binds and listens at once. */
    private InetSocketAddress bindAddress;

    /**
     * IP_TOS for accepted connections. A listening channel does not take IP_TOS, but Linux
     * hands a listener's TOS to the connections it accepts, so the value is applied there.
     */
    private volatile int trafficClass;

    private final Map<SocketOption<?>, Object> iwarpSettings =
            Collections.synchronizedMap(new LinkedHashMap<>());

    /** The backlog the channel listens with: with NEGOTIATE_BEFORE_ACCEPT, the most negotiated connections waiting. */
    private int backlog = DEFAULT_BACKLOG;
    /** IwarpOptions.NEGOTIATE_BEFORE_ACCEPT. */
    private volatile boolean negotiateBeforeAccept;
    /** With NEGOTIATE_BEFORE_ACCEPT, from the first accept on; guarded by stateLock. */
    private IwarpAcceptor acceptor;
    /** Whether the connections run on an RDMA device (IwarpOptions.PROVIDER). */
    private final DeviceListening device = new DeviceListening();

    @Override
    protected void create(boolean stream) throws IOException {
        if (!stream) {
            throw new IOException("Datagram socket creation not supported");
        }
        synchronized (stateLock) {
            if (channel != null || closed) {
                throw new IOException("Already created");
            }
            channel = PlatformProvider.get().openServerSocketChannel();
        }
    }

    @Override
    protected void bind(InetAddress host, int port) throws IOException {
        synchronized (stateLock) {
            openChannel();
            if (bindAddress != null) {
                throw new SocketException("Already bound");
            }
            bindAddress = new InetSocketAddress(host, port);
            address = host;
        }
    }

    @Override
    protected void listen(int backlog) throws IOException {
        synchronized (stateLock) {
            ServerSocketChannel ch = openChannel();
            if (bindAddress == null) {
                throw new SocketException("Not bound");
            }
            this.backlog = backlog < 1 ? DEFAULT_BACKLOG : backlog;
            ch.bind(bindAddress, this.backlog);
            localport = ((InetSocketAddress) ch.getLocalAddress()).getPort();
        }
    }

    @Override
    protected void accept(SocketImpl s) throws IOException {
        if (!(s instanceof ChannelSocketImpl)) {
            throw new IOException("An ExtendedServerSocket accepts only into ExtendedSockets, not "
                    + s.getClass().getName());
        }
        ServerSocketChannel ch;
        synchronized (stateLock) {
            ch = openChannel();
            if (localport == 0) {
                throw new SocketException("Not bound");
            }
        }
        DeviceAcceptor onDevice = device.acceptor(ch, Map.copyOf(iwarpSettings), backlog);
        if (onDevice != null) {
            ((ChannelSocketImpl) s).acceptedOnDevice(onDevice.take(timeout), Map.copyOf(iwarpSettings));
            return;
        }
        if (negotiateBeforeAccept && Boolean.TRUE.equals(iwarpSettings.get(IwarpOptions.IWARP_MODE))) {
            acceptNegotiated((ChannelSocketImpl) s);
            return;
        }
        SocketChannel accepted;
        boolean interrupted = InterruptShield.enter();
        try {
            int millis = timeout;
            if (millis > 0) {
                // The adaptor implements the timed blocking accept without a Selector.
                ServerSocket adaptor = ch.socket();
                adaptor.setSoTimeout(millis);
                accepted = adaptor.accept().getChannel();
            } else {
                accepted = ch.accept();
            }
        } catch (IOException e) {
            throw SocketErrors.asSocketError(e);
        } finally {
            InterruptShield.exit(interrupted);
        }
        try {
            applyTrafficClass(accepted);
        } catch (IOException e) {
            accepted.close();
            throw e;
        }
        ((ChannelSocketImpl) s).accepted(accepted, null, Map.copyOf(iwarpSettings));
    }

    /** NEGOTIATE_BEFORE_ACCEPT: the next connection the engine negotiated, switched or fallen back. */
    private void acceptNegotiated(ChannelSocketImpl s) throws IOException {
        IwarpAcceptor negotiating = startedAcceptor();
        AcceptedAhead next;
        do {
            next = negotiating.take(timeout);
        } while (!next.channel().isOpen());  // its connection ended while it waited: the engine closed it
        try {
            applyTrafficClass(next.channel());
        } catch (IOException e) {
            next.discard();
            throw e;
        }
        s.accepted(next.channel(), next, Map.copyOf(iwarpSettings));
    }

    /** IP_TOS as set on this server socket, for a connection it accepted (see {@link #trafficClass}). */
    private void applyTrafficClass(SocketChannel accepted) throws IOException {
        int tos = trafficClass;
        if (tos != 0) {
            accepted.setOption(StandardSocketOptions.IP_TOS, tos);
        }
    }

    /** The acceptor, started at the first accept with the iWARP options set by then. */
    private IwarpAcceptor startedAcceptor() throws IOException {
        synchronized (stateLock) {
            ServerSocketChannel ch = openChannel();
            if (acceptor == null) {
                Map<SocketOption<?>, Object> options = new LinkedHashMap<>(iwarpSettings);
                // Nothing was read or written on a connection yet: FALLBACK may apply.
                options.put(IwarpOptionValues.NO_EARLIER_STREAM, Boolean.TRUE);
                acceptor = IwarpProviders.require().acceptAhead(ch, Map.copyOf(options), backlog);
            }
            return acceptor;
        }
    }

    @Override
    protected void close() throws IOException {
        ServerSocketChannel ch;
        IwarpAcceptor negotiating;
        synchronized (stateLock) {
            if (closed) {
                return;
            }
            closed = true;
            ch = channel;
            negotiating = acceptor;
        }
        device.close();
        if (negotiating != null) {
            negotiating.close();  // closes the listener too
        }
        if (ch != null) {
            ch.close();
        }
    }

    // ---- options ------------------------------------------------------------------------

    @Override
    public void setOption(int opt, Object value) throws SocketException {
        ServerSocketChannel ch = openChannelForOption();
        try {
            SocketOptionTable.Legacy option = SocketOptionTable.Legacy.ofServerSocket(opt);
            Object checked = option.checked(value);
            switch (option) {
                case SO_TIMEOUT:
                    timeout = (Integer) checked;
                    break;
                case IP_TOS:
                    trafficClass = (Integer) checked;
                    break;
                default:
                    setUnchecked(ch, option.typed(), checked);
            }
        } catch (SocketException e) {
            throw e;
        } catch (IllegalArgumentException | IOException e) {
            throw SocketErrors.asOptionError(e);
        }
    }

    @Override
    public Object getOption(int opt) throws SocketException {
        ServerSocketChannel ch = openChannelForOption();
        try {
            SocketOptionTable.Legacy option = SocketOptionTable.Legacy.ofServerSocket(opt);
            switch (option) {
                case SO_TIMEOUT:
                    return timeout;
                case IP_TOS:
                    return trafficClass;
                case SO_BINDADDR:
                    return SocketOptionTable.boundAddress(ch);
                default:
                    return ch.getOption(option.typed());
            }
        } catch (SocketException e) {
            throw e;
        } catch (IllegalArgumentException | IOException e) {
            throw SocketErrors.asOptionError(e);
        }
    }

    @Override
    protected Set<SocketOption<?>> supportedOptions() {
        return SocketOptionTable.ofServerSocket();
    }

    @Override
    protected <T> void setOption(SocketOption<T> option, T value) throws IOException {
        SocketOptionTable.checkSet(supportedOptions(), option, value);
        ServerSocketChannel ch = openChannelForOption();
        if (option == IwarpOptions.NEGOTIATE_BEFORE_ACCEPT || IwarpOptions.ALL.contains(option)) {
            requireNotNegotiatingYet(option);
        }
        if (option == StandardSocketOptions.IP_TOS) {
            trafficClass = (Integer) value;
        } else if (option == IwarpOptions.NEGOTIATE_BEFORE_ACCEPT) {
            if ((Boolean) value) {
                IwarpProviders.require();
            }
            negotiateBeforeAccept = (Boolean) value;
        } else if (IwarpOptions.ALL.contains(option)) {
            IwarpOptionValues.store(iwarpSettings, option, value);
        } else {
            ch.setOption(option, value);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    protected <T> T getOption(SocketOption<T> option) throws IOException {
        SocketOptionTable.checkGet(supportedOptions(), option);
        ServerSocketChannel ch = openChannelForOption();
        if (option == StandardSocketOptions.IP_TOS) {
            return (T) Integer.valueOf(trafficClass);
        }
        if (option == IwarpOptions.NEGOTIATE_BEFORE_ACCEPT) {
            return (T) Boolean.valueOf(negotiateBeforeAccept);
        }
        if (IwarpOptions.ALL.contains(option)) {
            return IwarpOptionValues.copyOfValueIn(iwarpSettings, option);
        }
        return ch.getOption(option);
    }

    /** Connections already negotiate with the options of the first accept: they cannot change. */
    private void requireNotNegotiatingYet(SocketOption<?> option) throws SocketException {
        synchronized (stateLock) {
            if (acceptor != null) {
                throw new SocketException("cannot set " + option.name() + ": this server socket negotiates"
                        + " connections before accept (IWARP_NEGOTIATE_BEFORE_ACCEPT) with the iWARP options it had"
                        + " at its first accept");
            }
        }
    }

    // ---- what a server SocketImpl never does ---------------------------------------------

    @Override
    protected void connect(String host, int port) throws IOException {
        throw new SocketException("Not a client socket");
    }

    @Override
    protected void connect(InetAddress address, int port) throws IOException {
        throw new SocketException("Not a client socket");
    }

    @Override
    protected void connect(SocketAddress address, int timeout) throws IOException {
        throw new SocketException("Not a client socket");
    }

    @Override
    protected InputStream getInputStream() throws IOException {
        throw new SocketException("Not a client socket");
    }

    @Override
    protected OutputStream getOutputStream() throws IOException {
        throw new SocketException("Not a client socket");
    }

    @Override
    protected int available() throws IOException {
        throw new SocketException("Not a client socket");
    }

    @Override
    protected void sendUrgentData(int data) throws IOException {
        throw new SocketException("Not a client socket");
    }

    // ---- helpers ------------------------------------------------------------------------

    private ServerSocketChannel openChannel() throws SocketException {
        if (closed) {
            throw new SocketException(SocketErrors.SOCKET_CLOSED);
        }
        if (channel == null) {
            throw new SocketException("Socket not created");
        }
        return channel;
    }

    private ServerSocketChannel openChannelForOption() throws SocketException {
        synchronized (stateLock) {
            return openChannel();
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> void setUnchecked(ServerSocketChannel ch, SocketOption<T> option, Object value)
            throws IOException {
        ch.setOption(option, (T) value);
    }
}
