package io.extsock.internal.nio;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketImpl;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.NotYetConnectedException;
import java.nio.channels.SocketChannel;
import java.util.Objects;
import java.util.Set;

/**
 * The socket adaptor of a {@link SwitchableSocketChannel}: the JDK channel's adaptor for what
 * belongs to the TCP connection (addresses, ports, buffer sizes, timeouts), and the channel
 * itself for what IWARP_MODE changes: its shutdowns and whether they happened, TCP_NODELAY and the
 * other options (which include the iWARP ones), close, and the streams once it switched.
 *
 * <p>Why not the JDK's adaptor alone: in IWARP_MODE a shutdown ends the iWARP stream and leaves
 * TCP up (the engine still needs it for the other direction), so the JDK's adaptor would say
 * input or output are not shut when they are; libraries ask it (Netty's {@code
 * isInputShutdown()}, which with half-closure allowed reads on until it says so).
 */
final class ChannelSocketAdaptor extends Socket {

    private final SwitchableSocketChannel channel;

    /**
     * Without a SocketImpl of its own (every method is overridden), so that no factory that a JVM
     * installed (extsock's agent's) makes one for it.
     */
    private ChannelSocketAdaptor(SwitchableSocketChannel channel) throws SocketException {
        super((SocketImpl) null);
        this.channel = channel;
    }

    static Socket of(SwitchableSocketChannel channel) {
        try {
            return new ChannelSocketAdaptor(channel);
        } catch (SocketException e) {
            throw new IllegalStateException("the JDK refused a Socket without a SocketImpl", e);
        }
    }

    /** The JDK's adaptor of the channel underneath now (a fallback's reconnect replaces that channel). */
    private Socket platform() {
        return channel.channel().socket();
    }

    // ---- what IWARP_MODE changes: through the channel ------------------------------------

    @Override
    public void shutdownInput() throws IOException {
        try {
            channel.shutdownInput();
        } catch (NotYetConnectedException e) {
            throw asSocketsSay(e);  // an IOException (ClosedChannelException) goes as it is, as from the JDK's
        }
    }

    @Override
    public void shutdownOutput() throws IOException {
        try {
            channel.shutdownOutput();
        } catch (NotYetConnectedException e) {
            throw asSocketsSay(e);  // an IOException (ClosedChannelException) goes as it is, as from the JDK's
        }
    }

    @Override
    public boolean isInputShutdown() {
        return channel.inputShut() || platform().isInputShutdown();
    }

    @Override
    public boolean isOutputShutdown() {
        return channel.outputShut() || platform().isOutputShutdown();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    /** The JDK adaptor's stream (and its checks) in passthrough; once switched, the iWARP stream's. */
    @Override
    public InputStream getInputStream() throws IOException {
        if (channel.inputShut()) {
            throw new SocketException("Socket input is shutdown");
        }
        return new StreamInput(platform().getInputStream());
    }

    /** The JDK adaptor's stream (and its checks) in passthrough; once switched, the iWARP stream's. */
    @Override
    public OutputStream getOutputStream() throws IOException {
        if (channel.outputShut()) {
            throw new SocketException("Socket output is shutdown");
        }
        return new StreamOutput(platform().getOutputStream());
    }

    /**
     * Reads through the JDK adaptor's stream until the channel switches, then through the channel
     * (blocking mode only, as the JDK's; SO_TIMEOUT does not apply to the iWARP stream).
     */
    private final class StreamInput extends InputStream {
        private final InputStream passthrough;

        StreamInput(InputStream passthrough) {
            this.passthrough = passthrough;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] bytes, int offset, int length) throws IOException {
            if (!channel.switched()) {
                return passthrough.read(bytes, offset, length);
            }
            Objects.checkFromIndexSize(offset, length, bytes.length);
            if (length == 0) {
                return 0;
            }
            if (!channel.isBlocking()) {
                throw new IllegalBlockingModeException();
            }
            return channel.read(ByteBuffer.wrap(bytes, offset, length));
        }

        @Override
        public int available() throws IOException {
            return channel.switched() ? 0 : passthrough.available();
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    /** Writes through the JDK adaptor's stream until the channel switches, then through the channel. */
    private final class StreamOutput extends OutputStream {
        private final OutputStream passthrough;

        StreamOutput(OutputStream passthrough) {
            this.passthrough = passthrough;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            if (!channel.switched()) {
                passthrough.write(bytes, offset, length);
                return;
            }
            Objects.checkFromIndexSize(offset, length, bytes.length);
            if (!channel.isBlocking()) {
                throw new IllegalBlockingModeException();
            }
            ByteBuffer out = ByteBuffer.wrap(bytes, offset, length);
            while (out.hasRemaining()) {
                channel.write(out);
            }
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    @Override
    public void setTcpNoDelay(boolean on) throws SocketException {
        setOptionOfSocket(StandardSocketOptions.TCP_NODELAY, on);
    }

    @Override
    public boolean getTcpNoDelay() throws SocketException {
        return getOptionOfSocket(StandardSocketOptions.TCP_NODELAY);
    }

    @Override
    public <T> Socket setOption(SocketOption<T> name, T value) throws IOException {
        setOptionOfSocket(name, value);
        return this;
    }

    @Override
    public <T> T getOption(SocketOption<T> name) throws IOException {
        return getOptionOfSocket(name);
    }

    @Override
    public Set<SocketOption<?>> supportedOptions() {
        return channel.supportedOptions();
    }

    private <T> void setOptionOfSocket(SocketOption<T> name, T value) throws SocketException {
        try {
            channel.setOption(name, value);
        } catch (SocketException e) {
            throw e;
        } catch (IOException e) {
            throw asSocketsSay(e);
        }
    }

    private <T> T getOptionOfSocket(SocketOption<T> name) throws SocketException {
        try {
            return channel.getOption(name);
        } catch (SocketException e) {
            throw e;
        } catch (IOException e) {
            throw asSocketsSay(e);
        }
    }

    /** As the JDK's adaptor translates a channel's exceptions. */
    private static SocketException asSocketsSay(Exception e) {
        SocketException translated;
        if (e instanceof ClosedChannelException) {
            translated = new SocketException("Socket is closed");
        } else if (e instanceof NotYetConnectedException) {
            translated = new SocketException("Socket is not connected");
        } else {
            translated = new SocketException(e.getMessage());
        }
        translated.initCause(e);
        return translated;
    }

    // ---- the TCP connection's: the JDK's adaptor ---------------------------------------------

    @Override
    public void connect(SocketAddress endpoint) throws IOException {
        platform().connect(endpoint);
    }

    @Override
    public void connect(SocketAddress endpoint, int timeout) throws IOException {
        platform().connect(endpoint, timeout);
    }

    @Override
    public void bind(SocketAddress bindpoint) throws IOException {
        platform().bind(bindpoint);
    }

    @Override
    public InetAddress getInetAddress() {
        return platform().getInetAddress();
    }

    @Override
    public InetAddress getLocalAddress() {
        return platform().getLocalAddress();
    }

    @Override
    public int getPort() {
        return platform().getPort();
    }

    @Override
    public int getLocalPort() {
        return platform().getLocalPort();
    }

    @Override
    public SocketAddress getRemoteSocketAddress() {
        return platform().getRemoteSocketAddress();
    }

    @Override
    public SocketAddress getLocalSocketAddress() {
        return platform().getLocalSocketAddress();
    }

    /** The JDK's channel underneath, as documented for {@code ExtendedSocketChannel.socket()}. */
    @Override
    public SocketChannel getChannel() {
        return platform().getChannel();
    }


    @Override
    public void setSoLinger(boolean on, int linger) throws SocketException {
        platform().setSoLinger(on, linger);
    }

    @Override
    public int getSoLinger() throws SocketException {
        return platform().getSoLinger();
    }

    @Override
    public void sendUrgentData(int data) throws IOException {
        platform().sendUrgentData(data);
    }

    @Override
    public void setOOBInline(boolean on) throws SocketException {
        platform().setOOBInline(on);
    }

    @Override
    public boolean getOOBInline() throws SocketException {
        return platform().getOOBInline();
    }

    @Override
    public void setSoTimeout(int timeout) throws SocketException {
        platform().setSoTimeout(timeout);
    }

    @Override
    public int getSoTimeout() throws SocketException {
        return platform().getSoTimeout();
    }

    @Override
    public void setSendBufferSize(int size) throws SocketException {
        platform().setSendBufferSize(size);
    }

    @Override
    public int getSendBufferSize() throws SocketException {
        return platform().getSendBufferSize();
    }

    @Override
    public void setReceiveBufferSize(int size) throws SocketException {
        platform().setReceiveBufferSize(size);
    }

    @Override
    public int getReceiveBufferSize() throws SocketException {
        return platform().getReceiveBufferSize();
    }

    @Override
    public void setKeepAlive(boolean on) throws SocketException {
        platform().setKeepAlive(on);
    }

    @Override
    public boolean getKeepAlive() throws SocketException {
        return platform().getKeepAlive();
    }

    @Override
    public void setTrafficClass(int tc) throws SocketException {
        platform().setTrafficClass(tc);
    }

    @Override
    public int getTrafficClass() throws SocketException {
        return platform().getTrafficClass();
    }

    @Override
    public void setReuseAddress(boolean on) throws SocketException {
        platform().setReuseAddress(on);
    }

    @Override
    public boolean getReuseAddress() throws SocketException {
        return platform().getReuseAddress();
    }

    @Override
    public boolean isConnected() {
        return platform().isConnected();
    }

    @Override
    public boolean isBound() {
        return platform().isBound();
    }

    @Override
    public boolean isClosed() {
        return platform().isClosed();
    }

    @Override
    public void setPerformancePreferences(int connectionTime, int latency, int bandwidth) {
        platform().setPerformancePreferences(connectionTime, latency, bandwidth);
    }

    @Override
    public String toString() {
        return platform().toString();
    }
}
