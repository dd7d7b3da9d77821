package io.extsock.examples.cli;

import io.extsock.ExtendedServerSocket;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.ServerSocketChannel;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Where a client connects or a server listens. */
public final class Endpoint {

    @Spec(Spec.Target.MIXEE)
    public CommandSpec mixee;

    @Option(names = "--host", paramLabel = "HOST",
            description = "Server: address to listen on (default: all). Client: host to connect to (default: localhost).")
    public String host;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", defaultValue = "7000",
            description = "TCP port (default: ${DEFAULT-VALUE}; a server takes 0 for any free port).")
    public int port;

    @Option(names = "--connect-timeout", paramLabel = "MS", defaultValue = "10000",
            description = "Client: how long to wait for the TCP connection, in milliseconds (default: ${DEFAULT-VALUE}).")
    public int connectTimeoutMillis = 10_000;

    public Endpoint() {
    }

    public Endpoint(String host, int port) {
        this.host = host;
        this.port = port;
    }

    public String clientHost() {
        return host != null ? host : "localhost";
    }

    /** The server's address, resolved; a client's. */
    public InetSocketAddress address() {
        checkPort(false);
        if (connectTimeoutMillis < 1) {
            throw badArgument("--connect-timeout must be at least 1 ms: " + connectTimeoutMillis);
        }
        InetSocketAddress address = new InetSocketAddress(clientHost(), port);
        if (address.isUnresolved()) {
            throw new UserError("unknown host: " + clientHost());
        }
        return address;
    }

    /** "host:port", as messages name the peer. */
    public String peer() {
        return clientHost() + ":" + port;
    }

    /** Something that sets options on a server socket before it binds. */
    public interface ServerSetup {
        void apply(ExtendedServerSocket server) throws IOException;
    }

    /** Listens here, after {@code setup} set the socket's options. */
    public ExtendedServerSocket listen(ServerSetup setup) {
        return listen(ExtendedServerSocket::new, setup::apply);
    }

    /**
     * Listens here on a java.nio ServerSocketChannel: plain TCP without extsock, whose accepted
     * sockets have channels (so {@code FileChannel.transferTo} into them is sendfile).
     */
    public ServerSocket listenOnChannel() {
        return listen(() -> ServerSocketChannel.open().socket(), server -> { });
    }

    private interface Opener<S extends ServerSocket> {
        S open() throws IOException;
    }

    private interface Setup<S extends ServerSocket> {
        void apply(S server) throws IOException;
    }

    private <S extends ServerSocket> S listen(Opener<S> opener, Setup<S> setup) {
        checkPort(true);
        String address = (host != null ? host : "0.0.0.0") + ":" + port;
        InetSocketAddress bindTo = host != null ? new InetSocketAddress(host, port) : new InetSocketAddress(port);
        if (bindTo.isUnresolved()) {
            throw new UserError("unknown host: " + host);
        }
        S server = null;
        try {
            server = opener.open();
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
    public static String listeningOn(ServerSocket server) {
        InetSocketAddress local = (InetSocketAddress) server.getLocalSocketAddress();
        String host = local.getAddress().isAnyLocalAddress() ? "0.0.0.0" : local.getAddress().getHostAddress();
        return "listening on " + host + ":" + local.getPort();
    }

    private void checkPort(boolean server) {
        if (port < (server ? 0 : 1) || port > 0xFFFF) {
            throw badArgument("--port out of range: " + port + " (1 to 65535" + (server ? ", or 0 for any" : "") + ")");
        }
    }

    /** Bad option values are argument errors (exit code 2); made here, for commands built in code too. */
    private RuntimeException badArgument(String message) {
        return mixee != null ? new ParameterException(mixee.commandLine(), message) : new UserError(message);
    }
}
