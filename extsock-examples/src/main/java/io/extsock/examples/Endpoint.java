package io.extsock.examples;

import io.extsock.ExtendedServerSocket;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import picocli.CommandLine.Option;

/** Where a client connects or a server listens. */
final class Endpoint {

    @Option(names = "--host", paramLabel = "HOST",
            description = "Server: address to listen on (default: all). Client: host to connect to (default: localhost).")
    String host;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "7000",
            description = "TCP port (default: ${DEFAULT-VALUE}; a server takes 0 for any free port).")
    int port;

    @Option(names = "--connect-timeout", paramLabel = "MS", defaultValue = "10000",
            description = "Client: how long to wait for the TCP connection, in milliseconds (default: ${DEFAULT-VALUE}).")
    int connectTimeoutMillis = 10_000;

    Endpoint() {
    }

    Endpoint(String host, int port) {
        this.host = host;
        this.port = port;
    }

    String clientHost() {
        return host != null ? host : "localhost";
    }

    /** "host:port", as messages name the peer. */
    String peer() {
        return clientHost() + ":" + port;
    }

    /** Something that sets options on a server socket before it binds. */
    interface ServerSetup {
        void apply(ExtendedServerSocket server) throws IOException;
    }

    /** Listens here, after {@code setup} set the socket's options. */
    ExtendedServerSocket listen(ServerSetup setup) {
        checkPort(true);
        String address = (host != null ? host : "0.0.0.0") + ":" + port;
        InetSocketAddress bindTo = host != null ? new InetSocketAddress(host, port) : new InetSocketAddress(port);
        if (bindTo.isUnresolved()) {
            throw new UserError("unknown host: " + host);
        }
        ExtendedServerSocket server = null;
        try {
            server = new ExtendedServerSocket();
            setup.apply(server);
            server.setReuseAddress(true);
            server.bind(bindTo, 50);
            return server;
        } catch (IOException e) {
            Sockets.closeQuietly(server);
            throw UserErrors.listening(address, e);
        }
    }

    /** "listening on host:port": tests and scripts read the port from it. */
    static String listeningOn(ServerSocket server) {
        InetSocketAddress local = (InetSocketAddress) server.getLocalSocketAddress();
        String host = local.getAddress().isAnyLocalAddress() ? "0.0.0.0" : local.getAddress().getHostAddress();
        return "listening on " + host + ":" + local.getPort();
    }

    void checkPort(boolean server) {
        if (port < (server ? 0 : 1) || port > 0xFFFF) {
            throw new UserError("port out of range: " + port + " (1 to 65535" + (server ? ", or 0 for any" : "") + ")");
        }
    }
}
