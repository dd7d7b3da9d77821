package io.extsock.internal;

import io.extsock.IwarpOptions;
import io.extsock.internal.nio.PlatformProvider;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.SocketOption;
import java.net.SocketOptions;
import java.net.StandardSocketOptions;
import java.nio.channels.NetworkChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;

/**
 * The options of extsock's sockets and server sockets, written once for both: which options
 * each has, the type of each value, the checks a value passes before it is set, and the errors
 * that follow when it does not. The errors are the JDK's NioSocketImpl's, class and message. What
 * setting an option then does (to the channel, to the iWARP switch, kept for accepted
 * connections) is each socket's own business.
 */
final class SocketOptionTable {

    private static volatile Set<SocketOption<?>> socketOptions;
    private static volatile Set<SocketOption<?>> serverSocketOptions;

    private SocketOptionTable() {
    }

    /** The int-keyed options of SocketImpl's legacy interface ({@link SocketOptions}). */
    enum Legacy {
        SO_TIMEOUT(SocketOptions.SO_TIMEOUT, null, true, Legacy::timeout),
        SO_RCVBUF(SocketOptions.SO_RCVBUF, StandardSocketOptions.SO_RCVBUF, true, Legacy::bufferSize),
        SO_REUSEADDR(SocketOptions.SO_REUSEADDR, StandardSocketOptions.SO_REUSEADDR, true, Legacy::flag),
        /** A listening channel does not take it: the server socket keeps it for the connections it accepts. */
        IP_TOS(SocketOptions.IP_TOS, StandardSocketOptions.IP_TOS, true, Legacy::number),
        /** Read only: set by binding. */
        SO_BINDADDR(SocketOptions.SO_BINDADDR, null, true, null),
        SO_SNDBUF(SocketOptions.SO_SNDBUF, StandardSocketOptions.SO_SNDBUF, false, Legacy::bufferSize),
        TCP_NODELAY(SocketOptions.TCP_NODELAY, StandardSocketOptions.TCP_NODELAY, false, Legacy::flag),
        SO_KEEPALIVE(SocketOptions.SO_KEEPALIVE, StandardSocketOptions.SO_KEEPALIVE, false, Legacy::flag),
        /** JDK-internal as a typed option: only a channel's socket adaptor reaches it. */
        SO_OOBINLINE(SocketOptions.SO_OOBINLINE, null, false, Legacy::flag),
        /** Not on every platform: a socket checks that its channel has it. */
        SO_REUSEPORT(SocketOptions.SO_REUSEPORT, StandardSocketOptions.SO_REUSEPORT, false, Legacy::flag),
        /** In seconds; Boolean false, as Socket.setSoLinger(false, ...) passes it, turns it off (-1). */
        SO_LINGER(SocketOptions.SO_LINGER, StandardSocketOptions.SO_LINGER, false, Legacy::lingerSeconds);

        /** Checks a value given for {@code option}, and returns it as the option's type. */
        private interface Check {
            Object checked(Legacy option, Object value) throws SocketException;
        }

        private final int key;
        private final SocketOption<?> typed;
        private final boolean onServerSocket;
        private final Check check;

        Legacy(int key, SocketOption<?> typed, boolean onServerSocket, Check check) {
            this.key = key;
            this.typed = typed;
            this.onServerSocket = onServerSocket;
            this.check = check;
        }

        /** A socket's option {@code key}: a SocketException "Unknown option" if it has none. */
        static Legacy ofSocket(int key) throws SocketException {
            return of(key, false);
        }

        /** A server socket's option {@code key}: a SocketException "Unknown option" if it has none. */
        static Legacy ofServerSocket(int key) throws SocketException {
            return of(key, true);
        }

        private static Legacy of(int key, boolean serverSocket) throws SocketException {
            for (Legacy option : values()) {
                if (option.key == key && (option.onServerSocket || !serverSocket)) {
                    return option;
                }
            }
            throw unknown(key);
        }

        /** The same option in the typed API, through which a channel takes it; null if none does. */
        SocketOption<?> typed() {
            return typed;
        }

        /**
         * Checks a value to set.
         *
         * @return the value as the option's type
         * @throws SocketException a value of the wrong type ("Bad value for ..."), an option that
         *     cannot be set ("Unknown option ..."), or a value out of range
         * @throws IllegalArgumentException a negative SO_TIMEOUT, as NioSocketImpl (its option
         *     setter turns it into a SocketException with the same message)
         */
        Object checked(Object value) throws SocketException {
            if (check == null) {
                throw unknown(key);
            }
            return check.checked(this, value);
        }

        private static SocketException unknown(int key) {
            return new SocketException("Unknown option " + key);
        }

        private static Object timeout(Legacy option, Object value) throws SocketException {
            int millis = (Integer) number(option, value);
            if (millis < 0) {
                throw new IllegalArgumentException("timeout < 0");
            }
            return millis;
        }

        private static Object bufferSize(Legacy option, Object value) throws SocketException {
            int size = (Integer) number(option, value);
            if (size <= 0) {
                throw new SocketException(option.name() + " <= 0");
            }
            return size;
        }

        private static Object lingerSeconds(Legacy option, Object value) throws SocketException {
            return Boolean.FALSE.equals(value) ? Integer.valueOf(-1) : number(option, value);
        }

        private static Object number(Legacy option, Object value) throws SocketException {
            if (!(value instanceof Integer)) {
                throw new SocketException("Bad value for " + option.name());
            }
            return value;
        }

        private static Object flag(Legacy option, Object value) throws SocketException {
            if (!(value instanceof Boolean)) {
                throw new SocketException("Bad value for " + option.name());
            }
            return value;
        }
    }

    /**
     * The typed options a socket has: its channel's, less the JDK-internal SO_OOBINLINE that the
     * channel lists and Socket does not, and the iWARP ones.
     */
    static Set<SocketOption<?>> ofSocket() {
        Set<SocketOption<?>> options = socketOptions;
        if (options == null) {
            options = new HashSet<>();
            for (SocketOption<?> option : channelOptions(false)) {
                if (!option.name().equals("SO_OOBINLINE")) {
                    options.add(option);
                }
            }
            options.addAll(IwarpOptions.ALL);
            options = Collections.unmodifiableSet(options);
            socketOptions = options;
        }
        return options;
    }

    /**
     * The typed options a server socket has: its channel's, IP_TOS for the connections it
     * accepts, the iWARP ones, which its accepted sockets take, and NEGOTIATE_BEFORE_ACCEPT.
     */
    static Set<SocketOption<?>> ofServerSocket() {
        Set<SocketOption<?>> options = serverSocketOptions;
        if (options == null) {
            options = new HashSet<>(channelOptions(true));
            options.add(StandardSocketOptions.IP_TOS);
            options.addAll(IwarpOptions.ALL);
            options.add(IwarpOptions.NEGOTIATE_BEFORE_ACCEPT);
            options = Collections.unmodifiableSet(options);
            serverSocketOptions = options;
        }
        return options;
    }

    /**
     * Checks a typed option and its value before it is set.
     *
     * @throws UnsupportedOperationException if the socket has no such option
     * @throws IllegalArgumentException if the value is not of the option's type (null included)
     */
    static void checkSet(Set<SocketOption<?>> supported, SocketOption<?> option, Object value) {
        checkGet(supported, option);
        if (!option.type().isInstance(value)) {
            throw new IllegalArgumentException("Invalid value '" + value + "'");
        }
    }

    /**
     * Checks a typed option before it is read.
     *
     * @throws UnsupportedOperationException if the socket has no such option
     */
    static void checkGet(Set<SocketOption<?>> supported, SocketOption<?> option) {
        if (!supported.contains(option)) {
            throw new UnsupportedOperationException("'" + option + "' not supported");
        }
    }

    /** SO_BINDADDR: the address the channel is bound to, the wildcard address if none. */
    static InetAddress boundAddress(NetworkChannel channel) throws IOException {
        InetSocketAddress local = (InetSocketAddress) channel.getLocalAddress();
        return local != null ? local.getAddress() : new InetSocketAddress(0).getAddress();
    }

    private static Set<SocketOption<?>> channelOptions(boolean server) {
        try (NetworkChannel probe = server ? PlatformProvider.get().openServerSocketChannel()
                : PlatformProvider.get().openSocketChannel()) {
            return probe.supportedOptions();
        } catch (IOException e) {
            throw new IllegalStateException("cannot open a " + (server ? "server " : "")
                    + "socket channel to list its options", e);
        }
    }
}
