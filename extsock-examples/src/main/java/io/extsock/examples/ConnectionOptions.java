package io.extsock.examples;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import picocli.CommandLine.Option;

/**
 * Where to connect or listen, and the iWARP knobs: the options echo and file share. Whether
 * IWARP_MODE is on by default differs per command, so {@code --iwarp} lives in each command.
 */
final class ConnectionOptions {

    @Option(names = "--host", paramLabel = "HOST",
            description = "Server: address to listen on (default: all). Client: host to connect to (default: localhost).")
    String host;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "7000",
            description = "TCP port (default: ${DEFAULT-VALUE}; a server takes 0 for any free port).")
    int port;

    @Option(names = "--crc", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "IWARP_MODE: ask for MPA CRC32c on every frame (default: on; used when either end asks).")
    boolean crc;

    @Option(names = "--markers", description = "IWARP_MODE: ask the peer for MPA markers in what it sends.")
    boolean markers;

    @Option(names = "--mpa-timeout", paramLabel = "MS", defaultValue = "10000",
            description = "IWARP_MODE: how long the MPA negotiation may take, in milliseconds (default: ${DEFAULT-VALUE}).")
    int mpaTimeoutMillis;

    /** How long to wait for a TCP connection before giving up, in milliseconds. */
    static final int CONNECT_TIMEOUT_MILLIS = 10_000;

    String clientHost() {
        return host != null ? host : "localhost";
    }

    String peer() {
        return clientHost() + ":" + port;
    }

    /**
     * Connects to the server, switched to IWARP_MODE when asked; connection failures and a peer
     * that is not in IWARP_MODE become one-line {@link UserError}s.
     */
    ExtendedSocket connect(boolean iwarp) {
        checkPort(false);
        InetSocketAddress address = new InetSocketAddress(clientHost(), port);
        if (address.isUnresolved()) {
            throw new UserError("unknown host: " + clientHost());
        }
        ExtendedSocket socket = new ExtendedSocket();
        try {
            configure(socket, iwarp);
            socket.connect(address, CONNECT_TIMEOUT_MILLIS);
            return socket;
        } catch (IOException e) {
            Sockets.closeQuietly(socket);
            throw UserErrors.connecting(peer(), e);
        }
    }

    /** Sets the iWARP options (before the switch, as they must be) and TCP_NODELAY. */
    void configure(Socket socket, boolean iwarp) throws IOException {
        if (mpaTimeoutMillis < 1) {
            throw new UserError("--mpa-timeout must be at least 1 ms: " + mpaTimeoutMillis);
        }
        if (iwarp) {
            socket.setOption(IwarpOptions.CRC, crc);
            socket.setOption(IwarpOptions.MARKERS, markers);
            socket.setOption(IwarpOptions.MPA_TIMEOUT, mpaTimeoutMillis);
            Sockets.noDelayForIwarp(socket);
            socket.setOption(IwarpOptions.IWARP_MODE, true);
        }
    }

    /** Listens on {@code --host}/{@code --port}; every accepted connection in IWARP_MODE when asked. */
    ExtendedServerSocket listen(boolean iwarp) {
        checkPort(true);
        String address = (host != null ? host : "0.0.0.0") + ":" + port;
        ExtendedServerSocket server = null;
        try {
            server = new ExtendedServerSocket();
            if (iwarp) {
                server.setOption(IwarpOptions.CRC, crc);
                server.setOption(IwarpOptions.MARKERS, markers);
                server.setOption(IwarpOptions.MPA_TIMEOUT, mpaTimeoutMillis);
                server.setOption(IwarpOptions.IWARP_MODE, true);
            }
            server.setReuseAddress(true);
            InetSocketAddress bindTo = host != null ? new InetSocketAddress(host, port) : new InetSocketAddress(port);
            if (bindTo.isUnresolved()) {
                throw new UserError("unknown host: " + host);
            }
            server.bind(bindTo, 50);
            return server;
        } catch (IOException e) {
            Sockets.closeQuietly(server);
            throw UserErrors.listening(address, e);
        } catch (RuntimeException e) {
            Sockets.closeQuietly(server);
            throw e;
        }
    }

    /** What a server prints once it listens: tests and scripts read the port from it. */
    static String listeningLine(java.net.ServerSocket server, boolean iwarp, ConnectionOptions options) {
        InetSocketAddress local = (InetSocketAddress) server.getLocalSocketAddress();
        String host = local.getAddress().isAnyLocalAddress() ? "0.0.0.0" : local.getAddress().getHostAddress();
        return "listening on " + host + ":" + local.getPort() + ", " + describeMode(iwarp, options);
    }

    static String describeMode(boolean iwarp, ConnectionOptions options) {
        return iwarp ? "IWARP_MODE (CRC " + (options.crc ? "on" : "off") + ", markers "
                + (options.markers ? "on" : "off") + ")" : "plain TCP (passthrough)";
    }

    private void checkPort(boolean server) {
        if (port < (server ? 0 : 1) || port > 0xFFFF) {
            throw new UserError("port out of range: " + port + " (1 to 65535" + (server ? ", or 0 for any" : "") + ")");
        }
    }
}
