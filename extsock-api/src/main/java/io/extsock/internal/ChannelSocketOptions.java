package io.extsock.internal;

import io.extsock.IwarpOptions;
import io.extsock.spi.DeviceSession;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.SocketOption;
import java.net.SocketOptions;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * One socket's options, through both of {@code SocketImpl}'s option APIs: the legacy int-keyed
 * {@link SocketOptions} and the typed {@link SocketOption} one, where IWARP_MODE lives. TCP's
 * options go to the channel, and are remembered for the channel of a fallback's reconnect; the
 * iWARP ones go to the socket's {@link IwarpSwitch}; SO_TIMEOUT is kept here. Where the JDK's
 * NioSocketImpl raises an error, this raises the same class with the same message.
 */
final class ChannelSocketOptions {

    /** What the options need of their socket. */
    interface Socket {
        /** The socket's channel; the socket's state error if it has none now. */
        SocketChannel channel() throws SocketException;

        /** Whether this side connected (true) or accepted (false) the connection. */
        boolean initiator();
    }

    private static volatile Set<SocketOption<?>> supportedOptions;

    private final Socket socket;
    private final IwarpSwitch mode;
    /** SO_TIMEOUT: how long a read waits, 0 for ever. */
    private volatile int timeout;
    /** Channel options as the application set them, for a fallback's new channel (SO_OOBINLINE aside). */
    private final Map<SocketOption<?>, Object> channelOptionsSet =
            Collections.synchronizedMap(new LinkedHashMap<>());
    /** SO_OOBINLINE as the application set it, null if it did not: only the channel's adaptor has it. */
    private volatile Boolean oobInlineSet;

    ChannelSocketOptions(Socket socket, IwarpSwitch mode) {
        this.socket = socket;
        this.mode = mode;
    }

    /** SO_TIMEOUT, in milliseconds (0: none). */
    int timeout() {
        return timeout;
    }

    /** Sets the options the application set on {@code fresh}, a fallback's new channel. */
    void applyTo(SocketChannel fresh) throws IOException {
        for (Map.Entry<SocketOption<?>, Object> option : Map.copyOf(channelOptionsSet).entrySet()) {
            setUnchecked(fresh, option.getKey(), option.getValue());
        }
        Boolean oobInline = oobInlineSet;
        if (oobInline != null) {
            fresh.socket().setOOBInline(oobInline);
        }
    }

    /** SocketImpl's int-keyed setter ({@link SocketOptions}), with NioSocketImpl's checks and messages. */
    void setLegacy(int opt, Object value) throws SocketException {
        SocketChannel ch = socket.channel();
        try {
            switch (opt) {
                case SocketOptions.SO_LINGER: {
                    int seconds;
                    if (value instanceof Boolean && !((Boolean) value)) {
                        seconds = -1;
                    } else {
                        seconds = intValue(value, "SO_LINGER");
                    }
                    setChannelOption(ch, StandardSocketOptions.SO_LINGER, seconds);
                    break;
                }
                case SocketOptions.SO_TIMEOUT: {
                    int millis = intValue(value, "SO_TIMEOUT");
                    if (millis < 0) {
                        throw new IllegalArgumentException("timeout < 0");
                    }
                    timeout = millis;
                    break;
                }
                case SocketOptions.IP_TOS:
                    setChannelOption(ch, StandardSocketOptions.IP_TOS, intValue(value, "IP_TOS"));
                    break;
                case SocketOptions.TCP_NODELAY:
                    setTcpNoDelay(ch, booleanValue(value, "TCP_NODELAY"));
                    break;
                case SocketOptions.SO_SNDBUF: {
                    int size = intValue(value, "SO_SNDBUF");
                    if (size <= 0) {
                        throw new SocketException("SO_SNDBUF <= 0");
                    }
                    setChannelOption(ch, StandardSocketOptions.SO_SNDBUF, size);
                    break;
                }
                case SocketOptions.SO_RCVBUF: {
                    int size = intValue(value, "SO_RCVBUF");
                    if (size <= 0) {
                        throw new SocketException("SO_RCVBUF <= 0");
                    }
                    setChannelOption(ch, StandardSocketOptions.SO_RCVBUF, size);
                    break;
                }
                case SocketOptions.SO_KEEPALIVE:
                    setChannelOption(ch, StandardSocketOptions.SO_KEEPALIVE, booleanValue(value, "SO_KEEPALIVE"));
                    break;
                case SocketOptions.SO_OOBINLINE:
                    // Only the channel's adaptor reaches the JDK-internal SO_OOBINLINE option.
                    ch.socket().setOOBInline(booleanValue(value, "SO_OOBINLINE"));
                    oobInlineSet = (Boolean) value;
                    break;
                case SocketOptions.SO_REUSEADDR:
                    setChannelOption(ch, StandardSocketOptions.SO_REUSEADDR, booleanValue(value, "SO_REUSEADDR"));
                    break;
                case SocketOptions.SO_REUSEPORT:
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

    /** SocketImpl's int-keyed getter ({@link SocketOptions}). */
    Object getLegacy(int opt) throws SocketException {
        SocketChannel ch = socket.channel();
        try {
            switch (opt) {
                case SocketOptions.SO_TIMEOUT:
                    return timeout;
                case SocketOptions.TCP_NODELAY:
                    return mode.iwarpMode() ? mode.applicationNoDelay() : ch.getOption(StandardSocketOptions.TCP_NODELAY);
                case SocketOptions.SO_OOBINLINE:
                    return ch.socket().getOOBInline();
                case SocketOptions.SO_LINGER: {
                    int seconds = ch.getOption(StandardSocketOptions.SO_LINGER);
                    return seconds == -1 ? Boolean.FALSE : (Object) seconds;
                }
                case SocketOptions.SO_REUSEADDR:
                    return ch.getOption(StandardSocketOptions.SO_REUSEADDR);
                case SocketOptions.SO_BINDADDR: {
                    InetSocketAddress local = mode.session() instanceof DeviceSession onDevice
                            ? onDevice.localAddress()  // the device's connection; the channel never connected
                            : (InetSocketAddress) ch.getLocalAddress();
                    return local != null ? local.getAddress() : new InetSocketAddress(0).getAddress();
                }
                case SocketOptions.SO_SNDBUF:
                    return ch.getOption(StandardSocketOptions.SO_SNDBUF);
                case SocketOptions.SO_RCVBUF:
                    return ch.getOption(StandardSocketOptions.SO_RCVBUF);
                case SocketOptions.IP_TOS:
                    return ch.getOption(StandardSocketOptions.IP_TOS);
                case SocketOptions.SO_KEEPALIVE:
                    return ch.getOption(StandardSocketOptions.SO_KEEPALIVE);
                case SocketOptions.SO_REUSEPORT:
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

    /** The options a Socket of ours has: the channel's (less the JDK-internal SO_OOBINLINE) and the iWARP ones. */
    static Set<SocketOption<?>> supported() {
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

    /** SocketImpl's typed setter: iWARP options go to the switch, the others to the channel. */
    <T> void set(SocketOption<T> option, T value) throws IOException {
        if (!supported().contains(option)) {
            throw new UnsupportedOperationException("'" + option + "' not supported");
        }
        if (!option.type().isInstance(value)) {
            throw new IllegalArgumentException("Invalid value '" + value + "'");
        }
        SocketChannel ch = socket.channel();
        if (IwarpOptions.ALL.contains(option)) {
            mode.set(option, value, socket.initiator());
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
        if (!mode.setNoDelay(on)) {
            setChannelOption(ch, StandardSocketOptions.TCP_NODELAY, on);
        }
    }

    /** SocketImpl's typed getter. */
    @SuppressWarnings("unchecked")
    <T> T get(SocketOption<T> option) throws IOException {
        if (!supported().contains(option)) {
            throw new UnsupportedOperationException("'" + option + "' not supported");
        }
        SocketChannel ch = socket.channel();
        if (IwarpOptions.ALL.contains(option)) {
            return mode.get(option);
        }
        if (option == StandardSocketOptions.TCP_NODELAY && mode.iwarpMode()) {
            return (T) Boolean.valueOf(mode.applicationNoDelay());
        }
        return ch.getOption(option);
    }

    @SuppressWarnings("unchecked")
    private static <T> void setUnchecked(SocketChannel ch, SocketOption<T> option, Object value) throws IOException {
        ch.setOption(option, (T) value);
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
}
