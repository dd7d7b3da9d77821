package io.extsock.examples;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Where to connect or listen, and the iWARP knobs: the options echo, file and perf share. Whether
 * IWARP_MODE is on by default differs per command, so {@code --iwarp} lives in each command.
 */
final class ConnectionOptions {

    @Mixin
    Endpoint endpoint = new Endpoint();

    @Option(names = "--crc", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "IWARP_MODE: ask for MPA CRC32c on every frame (default: on; used when either end asks).")
    boolean crc;

    @Option(names = "--markers", description = "IWARP_MODE: ask the peer for MPA markers in what it sends.")
    boolean markers;

    @Option(names = "--mpa-timeout", paramLabel = "MS", defaultValue = "10000",
            description = "IWARP_MODE: how long the MPA negotiation may take, in milliseconds (default: ${DEFAULT-VALUE}).")
    int mpaTimeoutMillis;

    String clientHost() {
        return endpoint.clientHost();
    }

    String peer() {
        return endpoint.peer();
    }

    /**
     * Connects to the server, switched to IWARP_MODE when asked; connection failures and a peer
     * that is not in IWARP_MODE become one-line {@link UserError}s.
     */
    ExtendedSocket connect(boolean iwarp) {
        endpoint.checkPort(false);
        InetSocketAddress address = new InetSocketAddress(clientHost(), endpoint.port);
        if (address.isUnresolved()) {
            throw new UserError("unknown host: " + clientHost());
        }
        ExtendedSocket socket = new ExtendedSocket();
        try {
            configure(socket, iwarp);
            socket.connect(address, endpoint.connectTimeoutMillis);
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
        return endpoint.listen(server -> {
            if (iwarp) {
                server.setOption(IwarpOptions.CRC, crc);
                server.setOption(IwarpOptions.MARKERS, markers);
                server.setOption(IwarpOptions.MPA_TIMEOUT, mpaTimeoutMillis);
                server.setOption(IwarpOptions.IWARP_MODE, true);
            }
        });
    }

    /** What a server prints once it listens: tests and scripts read the port from it. */
    static String listeningLine(java.net.ServerSocket server, boolean iwarp, ConnectionOptions options) {
        return Endpoint.listeningOn(server) + ", " + describeMode(iwarp, options);
    }

    static String describeMode(boolean iwarp, ConnectionOptions options) {
        return iwarp ? "IWARP_MODE (CRC " + (options.crc ? "on" : "off") + ", markers "
                + (options.markers ? "on" : "off") + ")" : "plain TCP (passthrough)";
    }
}
