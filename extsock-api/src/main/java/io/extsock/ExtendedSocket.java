package io.extsock;

import io.extsock.internal.ChannelSocketImpl;
import io.extsock.internal.CloseAfterFailure;
import io.extsock.internal.ConnectingConstructors;
import io.extsock.internal.ImplSocket;
import io.extsock.verbs.IwarpConnection;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketOption;
import java.net.UnknownHostException;
import java.nio.channels.SocketChannel;
import java.util.Optional;
import java.util.Set;

/**
 * A {@link Socket} that can switch one connection to iWARP.
 *
 * <p>By default it is plain TCP and behaves exactly as {@code java.net.Socket}: the same
 * constructors, states, options, stream semantics and error messages. Setting {@link
 * IwarpOptions#IWARP_MODE} to true hands the connection to the iWARP engine; the streams keep
 * working over it.
 *
 * <p>How: every call goes to a plain {@code java.net.Socket} that runs on a SocketImpl of
 * ours ({@code ChannelSocketImpl}), so the JDK itself keeps the socket's state, checks and
 * messages, while the I/O goes through a {@link SocketChannel} that the engine can drive
 * without blocking once the connection switches. Documented differences from a plain Socket:
 * <ul>
 *   <li>{@link #getChannel()} returns {@code null}, as for any Socket not made by a channel:
 *       the channel belongs to the socket and, in IWARP_MODE, to the engine.
 *   <li>A platform thread <em>interrupted while blocked</em> in a read, write, connect or
 *       accept closes the socket (as for a SocketChannel, and for a Socket on a virtual
 *       thread); a plain Socket ignores that interrupt. An interrupt status already set when
 *       the call starts is left alone, as Socket does.
 *   <li>The deprecated constructors with {@code stream == false} (datagram sockets) throw
 *       {@link IllegalArgumentException}, as they do on recent JDKs.
 *   <li>{@link #sendUrgentData} sends TCP urgent data as Socket does, but only in
 *       passthrough mode: IWARP_MODE carries the stream in RDMAP messages, which have no
 *       urgent data.
 * </ul>
 */
public class ExtendedSocket extends Socket {

    private final ChannelSocketImpl impl;
    private final Socket socket;

    /** Creates an unconnected socket. */
    public ExtendedSocket() {
        this(new ChannelSocketImpl());
    }

    /**
     * Creates an unconnected socket that connects through the given proxy, as {@link
     * Socket#Socket(Proxy)}: {@link Proxy#NO_PROXY} or a DIRECT proxy connects directly.
     *
     * @param proxy {@link Proxy#NO_PROXY} or a DIRECT proxy
     *
     * @throws IllegalArgumentException if the proxy is null or of a type not supported
     */
    public ExtendedSocket(Proxy proxy) {
        this(new ChannelSocketImpl(proxy));
    }

    /**
     * Creates a socket and connects it to the named host and port.
     *
     * @param host the host name, or null for the loopback address
     * @param port the port
     * @throws UnknownHostException if the host name cannot be resolved
     * @throws IOException if the connection fails (refused, unreachable); the socket is closed
     * @throws IllegalArgumentException if the port is outside 0 to 65535
     */
    public ExtendedSocket(String host, int port) throws UnknownHostException, IOException {
        this(ConnectingConstructors.remote(host, port), null, true);
    }

    /**
     * Creates a socket and connects it to the address and port.
     *
     * @param address the remote address
     * @param port    the port
     * @throws IOException if the connection fails (refused, unreachable); the socket is closed
     * @throws NullPointerException if {@code address} is null
     * @throws IllegalArgumentException if the port is outside 0 to 65535
     */
    public ExtendedSocket(InetAddress address, int port) throws IOException {
        this(address != null ? new InetSocketAddress(address, port) : null, null, true);
    }

    /**
     * Creates a socket bound to the local address and port and connects it to the host.
     *
     * @param host      the host name, or null for the loopback address
     * @param port      the port
     * @param localAddr the local address to bind to, or null for any
     * @param localPort the local port to bind to, or 0 for an ephemeral port
     * @throws IOException if binding or connecting fails (an unknown host: {@link
     *         UnknownHostException}); the socket is closed
     * @throws IllegalArgumentException if a port is outside 0 to 65535
     */
    public ExtendedSocket(String host, int port, InetAddress localAddr, int localPort)
            throws IOException {
        this(ConnectingConstructors.remote(host, port), new InetSocketAddress(localAddr, localPort), true);
    }

    /**
     * Creates a socket bound to the local address and port and connects it to the address.
     *
     * @param address   the remote address
     * @param port      the port
     * @param localAddr the local address to bind to, or null for any
     * @param localPort the local port to bind to, or 0 for an ephemeral port
     * @throws IOException if binding or connecting fails; the socket is closed
     * @throws NullPointerException if {@code address} is null
     * @throws IllegalArgumentException if a port is outside 0 to 65535
     */
    public ExtendedSocket(InetAddress address, int port, InetAddress localAddr, int localPort)
            throws IOException {
        this(address != null ? new InetSocketAddress(address, port) : null,
                new InetSocketAddress(localAddr, localPort), true);
    }

    /**
     * As {@link Socket#Socket(String, int, boolean)}.
     *
     * @param host   the host name, or null for the loopback address
     * @param port   the port
     * @param stream must be true
     * @throws IOException if the connection fails; the socket is closed
     * @throws IllegalArgumentException if {@code stream} is false: no datagram sockets
     * @deprecated use {@link #ExtendedSocket(String, int)}
     */
    @Deprecated(since = "0.1")
    public ExtendedSocket(String host, int port, boolean stream) throws IOException {
        this(ConnectingConstructors.remote(host, port), null, stream);
    }

    /**
     * As {@link Socket#Socket(InetAddress, int, boolean)}.
     *
     * @param host   the remote address
     * @param port   the port
     * @param stream must be true
     * @throws IOException if the connection fails; the socket is closed
     * @throws IllegalArgumentException if {@code stream} is false: no datagram sockets
     * @deprecated use {@link #ExtendedSocket(InetAddress, int)}
     */
    @Deprecated(since = "0.1")
    public ExtendedSocket(InetAddress host, int port, boolean stream) throws IOException {
        this(host != null ? new InetSocketAddress(host, port) : null,
                new InetSocketAddress(0), stream);
    }

    /** Wraps an accepted connection; see {@link ExtendedServerSocket#accept()}. */
    ExtendedSocket(ChannelSocketImpl impl, Socket socket) {
        super(Proxy.NO_PROXY);  // this Socket's own implementation is never used
        this.impl = impl;
        this.socket = socket;
        impl.setOwner(socket);
    }

    private ExtendedSocket(ChannelSocketImpl impl) {
        this(impl, ImplSocket.on(impl));
    }

    private ExtendedSocket(SocketAddress remote, SocketAddress local, boolean stream)
            throws IOException {
        this(new ChannelSocketImpl());
        ConnectingConstructors.bindAndConnect(this, remote, local, stream);
    }

    /**
     * The extended side of this connection in IWARP_MODE: registered memory, work requests
     * (Send, Receive, RDMA Write and Read) and their completions.
     *
     * @return the connection's extended side; the same object on every call
     * @throws SocketException if the socket is closed or not in IWARP_MODE
     * @throws IwarpNegotiationException if this is an accepted socket whose deferred switch
     *         (see {@link ExtendedServerSocket}) fails now; the socket is then closed
     */
    public IwarpConnection iwarp() throws IOException {
        return impl.iwarpConnection();
    }

    /**
     * Why this socket runs plain TCP although IWARP_MODE was asked for: with {@link
     * IwarpOptions#FALLBACK}, the switch found that the peer is not an iWARP peer (reason {@code
     * NOT_AN_IWARP_PEER}, {@code TIMEOUT} or {@code CONNECTION_CLOSED}) and went on as plain TCP.
     * An accepted socket decides at its first use.
     *
     * @return the negotiation failure that made the switch fall back; empty if none did
     */
    public Optional<IwarpNegotiationException> iwarpFallbackCause() {
        return impl.iwarpFallbackCause();
    }

    // ---- java.net.Socket, forwarded -------------------------------------------------------

    @Override
    public void connect(SocketAddress endpoint) throws IOException {
        connect(endpoint, 0);
    }

    /** As Socket's; with IWARP_MODE set beforehand, the switch happens here, right after the connect. */
    @Override
    public void connect(SocketAddress endpoint, int timeout) throws IOException {
        try {
            socket.connect(endpoint, timeout);
        } catch (IwarpNegotiationException e) {
            CloseAfterFailure.close(this, e);
            throw e;
        }
    }

    @Override
    public void bind(SocketAddress bindpoint) throws IOException {
        socket.bind(bindpoint);
    }

    @Override
    public InetAddress getInetAddress() {
        return socket.getInetAddress();
    }

    @Override
    public InetAddress getLocalAddress() {
        return socket.getLocalAddress();
    }

    @Override
    public int getPort() {
        return socket.getPort();
    }

    @Override
    public int getLocalPort() {
        return socket.getLocalPort();
    }

    @Override
    public SocketAddress getRemoteSocketAddress() {
        return socket.getRemoteSocketAddress();
    }

    @Override
    public SocketAddress getLocalSocketAddress() {
        return socket.getLocalSocketAddress();
    }

    /** Always {@code null}: see the class comment. */
    @Override
    public SocketChannel getChannel() {
        return null;
    }

    @Override
    public InputStream getInputStream() throws IOException {
        return socket.getInputStream();
    }

    @Override
    public OutputStream getOutputStream() throws IOException {
        return socket.getOutputStream();
    }

    @Override
    public void setTcpNoDelay(boolean on) throws SocketException {
        socket.setTcpNoDelay(on);
    }

    @Override
    public boolean getTcpNoDelay() throws SocketException {
        return socket.getTcpNoDelay();
    }

    @Override
    public void setSoLinger(boolean on, int linger) throws SocketException {
        socket.setSoLinger(on, linger);
    }

    @Override
    public int getSoLinger() throws SocketException {
        return socket.getSoLinger();
    }

    /** As Socket's in passthrough mode; fails in IWARP_MODE (see the class comment). */
    @Override
    public void sendUrgentData(int data) throws IOException {
        socket.sendUrgentData(data);
    }

    @Override
    public void setOOBInline(boolean on) throws SocketException {
        socket.setOOBInline(on);
    }

    @Override
    public boolean getOOBInline() throws SocketException {
        return socket.getOOBInline();
    }

    @Override
    public void setSoTimeout(int timeout) throws SocketException {
        socket.setSoTimeout(timeout);
    }

    @Override
    public int getSoTimeout() throws SocketException {
        return socket.getSoTimeout();
    }

    @Override
    public void setSendBufferSize(int size) throws SocketException {
        socket.setSendBufferSize(size);
    }

    @Override
    public int getSendBufferSize() throws SocketException {
        return socket.getSendBufferSize();
    }

    @Override
    public void setReceiveBufferSize(int size) throws SocketException {
        socket.setReceiveBufferSize(size);
    }

    @Override
    public int getReceiveBufferSize() throws SocketException {
        return socket.getReceiveBufferSize();
    }

    @Override
    public void setKeepAlive(boolean on) throws SocketException {
        socket.setKeepAlive(on);
    }

    @Override
    public boolean getKeepAlive() throws SocketException {
        return socket.getKeepAlive();
    }

    @Override
    public void setTrafficClass(int tc) throws SocketException {
        socket.setTrafficClass(tc);
    }

    @Override
    public int getTrafficClass() throws SocketException {
        return socket.getTrafficClass();
    }

    @Override
    public void setReuseAddress(boolean on) throws SocketException {
        socket.setReuseAddress(on);
    }

    @Override
    public boolean getReuseAddress() throws SocketException {
        return socket.getReuseAddress();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    @Override
    public void shutdownInput() throws IOException {
        socket.shutdownInput();
    }

    @Override
    public void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    @Override
    public String toString() {
        return socket.toString();
    }

    @Override
    public boolean isConnected() {
        return socket.isConnected();
    }

    @Override
    public boolean isBound() {
        return socket.isBound();
    }

    @Override
    public boolean isClosed() {
        return socket.isClosed();
    }

    @Override
    public boolean isInputShutdown() {
        return socket.isInputShutdown();
    }

    @Override
    public boolean isOutputShutdown() {
        return socket.isOutputShutdown();
    }

    @Override
    public void setPerformancePreferences(int connectionTime, int latency, int bandwidth) {
        socket.setPerformancePreferences(connectionTime, latency, bandwidth);
    }

    /**
     * As Socket's. Setting {@link IwarpOptions#IWARP_MODE} on a connected socket switches it
     * here; if negotiation fails, the socket is closed (never half switched) and the {@link
     * IwarpNegotiationException} says why.
     */
    @Override
    public <T> Socket setOption(SocketOption<T> name, T value) throws IOException {
        try {
            socket.setOption(name, value);
        } catch (IwarpNegotiationException e) {
            CloseAfterFailure.close(this, e);
            throw e;
        }
        return this;
    }

    @Override
    public <T> T getOption(SocketOption<T> name) throws IOException {
        return socket.getOption(name);
    }

    /** Socket's options plus those of {@link IwarpOptions}. */
    @Override
    public Set<SocketOption<?>> supportedOptions() {
        return socket.supportedOptions();
    }
}
