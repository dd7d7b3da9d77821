package io.extsock.internal;

import io.extsock.IwarpOptions;
import io.extsock.spi.DeviceSession;
import java.io.IOException;
import java.net.SocketException;
import java.net.SocketOption;
import java.net.SocketOptions;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * One socket's options, through both of {@code SocketImpl}'s option APIs: the legacy int-keyed
 * {@link SocketOptions} and the typed {@link SocketOption} one, where IWARP_MODE lives. TCP's
 * options go to the channel, and are remembered for the channel of a fallback's reconnect; the
 * iWARP ones go to the socket's {@link IwarpSwitch}; SO_TIMEOUT is kept here. Which options
 * exist, and the checks and errors of their values, are {@link SocketOptionTable}'s.
 */
final class ChannelSocketOptions {

    /** What the options need of their socket. */
    interface Socket {
        /** The socket's channel; the socket's state error if it has none now. */
        SocketChannel channel() throws SocketException;

        /** Whether this side connected (true) or accepted (false) the connection. */
        boolean initiator();
    }

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

    /** SocketImpl's int-keyed setter ({@link SocketOptions}), with the table's checks and messages. */
    void setLegacy(int opt, Object value) throws SocketException {
        SocketChannel ch = socket.channel();
        try {
            SocketOptionTable.Legacy option = SocketOptionTable.Legacy.ofSocket(opt);
            if (option == SocketOptionTable.Legacy.SO_REUSEPORT) {
                requireReusePort(ch);
            }
            Object checked = option.checked(value);
            switch (option) {
                case SO_TIMEOUT:
                    timeout = (Integer) checked;
                    break;
                case TCP_NODELAY:
                    setTcpNoDelay(ch, (Boolean) checked);
                    break;
                case SO_OOBINLINE:
                    // Only the channel's adaptor reaches the JDK-internal SO_OOBINLINE option.
                    ch.socket().setOOBInline((Boolean) checked);
                    oobInlineSet = (Boolean) checked;
                    break;
                default:
                    setChannelOption(ch, option.typed(), checked);
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
            SocketOptionTable.Legacy option = SocketOptionTable.Legacy.ofSocket(opt);
            switch (option) {
                case SO_TIMEOUT:
                    return timeout;
                case TCP_NODELAY:
                    return mode.iwarpMode() ? mode.applicationNoDelay() : ch.getOption(StandardSocketOptions.TCP_NODELAY);
                case SO_OOBINLINE:
                    return ch.socket().getOOBInline();
                case SO_LINGER: {
                    int seconds = ch.getOption(StandardSocketOptions.SO_LINGER);
                    return seconds == -1 ? Boolean.FALSE : (Object) seconds;
                }
                case SO_BINDADDR:
                    if (mode.session() instanceof DeviceSession onDevice) {
                        return onDevice.localAddress().getAddress();  // the device's connection; the channel never connected
                    }
                    return SocketOptionTable.boundAddress(ch);
                case SO_REUSEPORT:
                    requireReusePort(ch);
                    return ch.getOption(StandardSocketOptions.SO_REUSEPORT);
                default:
                    return ch.getOption(option.typed());
            }
        } catch (SocketException e) {
            throw e;
        } catch (IllegalArgumentException | IOException e) {
            throw SocketErrors.asOptionError(e);
        }
    }

    /** SO_REUSEPORT exists on some platforms only. */
    private static void requireReusePort(SocketChannel ch) throws SocketException {
        if (!ch.supportedOptions().contains(StandardSocketOptions.SO_REUSEPORT)) {
            throw new SocketException("SO_REUSEPORT not supported");
        }
    }

    /** The options a socket of ours has (see {@link SocketOptionTable#ofSocket()}). */
    static Set<SocketOption<?>> supported() {
        return SocketOptionTable.ofSocket();
    }

    /** SocketImpl's typed setter: iWARP options go to the switch, the others to the channel. */
    <T> void set(SocketOption<T> option, T value) throws IOException {
        SocketOptionTable.checkSet(supported(), option, value);
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
    private void setChannelOption(SocketChannel ch, SocketOption<?> option, Object value) throws IOException {
        setUnchecked(ch, option, value);
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
        SocketOptionTable.checkGet(supported(), option);
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
}
