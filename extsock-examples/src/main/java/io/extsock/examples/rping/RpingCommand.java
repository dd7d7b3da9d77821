package io.extsock.examples.rping;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.examples.cli.Endpoint;
import io.extsock.examples.cli.Sockets;
import io.extsock.examples.cli.UserError;
import io.extsock.examples.cli.UserErrors;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code extsock rping}: rdma-core's rping, on the wire and on the command line, so that it
 * talks to any iWARP stack's rping (Linux siw, hardware adapters) and to itself. Built on the
 * public extended API only: registered buffers, Sends and Receives, RDMA Read and Write.
 */
@Command(name = "rping",
        description = {"rdma-core's rping over extsock's software iWARP: the same options, the same wire "
                + "protocol, so it pings rping servers and serves rping clients of any iWARP stack.",
            "Each ping: the client advertises its source buffer, the server RDMA-Reads it, then the client "
                    + "advertises its sink buffer and the server RDMA-Writes the data back into it."},
        sortOptions = false)
public final class RpingCommand implements Callable<Integer> {

    /** rping's default port, data size and limits (its RPING_MIN_BUFSIZE and 64 KiB - 1). */
    public static final int DEFAULT_PORT = 7174;
    public static final int DEFAULT_SIZE = 64;
    public static final int MIN_SIZE = 26;
    public static final int MAX_SIZE = 65535;
    private static final String VALIDATE = "-V";

    @Spec
    public CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    public Role role;

    public static final class Role {
        @Option(names = "-c", required = true, description = "client side") boolean client;
        @Option(names = "-s", required = true, description = "server side") boolean server;
    }

    @Option(names = "-a", paramLabel = "addr",
            description = "address: the server's (client; default localhost), or the one to listen on (server; default all)")
    public String address;

    @Option(names = "-I", paramLabel = "addr", description = "source address to bind to (client)")
    public String source;

    @Option(names = "-p", paramLabel = "port", defaultValue = "" + DEFAULT_PORT, description = "port (default: ${DEFAULT-VALUE})")
    public int port;

    @Option(names = "-C", paramLabel = "count", defaultValue = "0",
            description = "ping count times (client; default: until stopped)")
    public int count;

    @Option(names = "-S", paramLabel = "size", defaultValue = "" + DEFAULT_SIZE,
            description = "ping data size (default: ${DEFAULT-VALUE}; " + MIN_SIZE + " to " + MAX_SIZE + ")")
    public int size;

    @Option(names = "-v", description = "display ping data to stdout")
    public boolean verbose;


    @Option(names = "-d", description = "debug printfs")
    public boolean debug;

    @Option(names = "-P", description = "persistent server mode allowing multiple connections")
    public boolean persistent;

    @Option(names = "--crc", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "ask for MPA CRC32c (default: on; used when either end asks; Linux siw does not ask)")
    public boolean crc;

    @Option(names = "--mpa-timeout", paramLabel = "MS", defaultValue = "10000",
            description = "how long the MPA negotiation may take, in milliseconds (default: ${DEFAULT-VALUE})")
    public int mpaTimeoutMillis;

    /**
     * rping's {@code -V} validates; every extsock command inherits {@code -V} as {@code --version}.
     * Here {@code -V} is rping's, and the version stays on {@code --version}.
     */
    public static void takeBackDashV(CommandLine rping) {
        CommandSpec spec = rping.getCommandSpec();
        spec.remove(spec.findOption("--version"));
        spec.addOption(OptionSpec.builder("--version").versionHelp(true)
                .description("Print version information and exit.").build());
        spec.addOption(OptionSpec.builder(VALIDATE).type(boolean.class).description("validate ping data (client)").build());
    }

    @Override
    public Integer call() throws Exception {
        boolean validate = Boolean.TRUE.equals(spec.findOption(VALIDATE).getValue());
        checkArguments();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        RpingOptions options = new RpingOptions(size, count, verbose, validate, debug, out);
        RpingSetup setup = new RpingSetup(options);
        if (role.client) {
            ExtendedSocket socket = connect(setup);
            new RpingClient(options).run(socket, setup.peerOf(socket));
        } else {
            ExtendedServerSocket server = listen(setup);
            out.println("extsock rping: " + Endpoint.listeningOn(server) + (persistent ? ", persistent" : ""));
            out.flush();
            new RpingServer(options, setup).run(server, persistent, err);
        }
        return 0;
    }

    private void checkArguments() {
        if (size < MIN_SIZE || size > MAX_SIZE) {
            throw new ParameterException(spec.commandLine(),
                    "Invalid size " + size + " (valid range is " + MIN_SIZE + " to " + MAX_SIZE + ")");
        }
        if (count < 0) {
            throw new ParameterException(spec.commandLine(), "Invalid count " + count);
        }
        if (port < (role.server ? 0 : 1) || port > 0xFFFF) {
            throw new ParameterException(spec.commandLine(), "-p out of range: " + port);
        }
        if (mpaTimeoutMillis < 1) {
            throw new ParameterException(spec.commandLine(), "--mpa-timeout must be at least 1 ms: " + mpaTimeoutMillis);
        }
        // Like rping, a role ignores the other role's options (tutorials run "rping -s -v -V").
    }

    /** Connects as rping's client does: IWARP_MODE right after the TCP connect, Receive posted first. */
    private ExtendedSocket connect(RpingSetup setup) {
        String host = address != null ? address : "localhost";
        String peer = host + ":" + port;
        InetSocketAddress server = new InetSocketAddress(host, port);
        if (server.isUnresolved()) {
            throw new UserError("unknown host: " + host);
        }
        ExtendedSocket socket = new ExtendedSocket();
        try {
            if (source != null) {
                socket.bind(new InetSocketAddress(resolve(source), 0));
            }
            configure(socket, setup);
            socket.setOption(IwarpOptions.IWARP_MODE, true);
            socket.connect(server, 10_000);
            return socket;
        } catch (IOException e) {
            Sockets.closeQuietly(socket);
            throw UserErrors.connecting(peer, e);
        }
    }

    private ExtendedServerSocket listen(RpingSetup setup) {
        return new Endpoint(address, port).listen(server -> {
            configure(server, setup);
            server.setOption(IwarpOptions.IWARP_MODE, true);
        });
    }

    /** The peer is rping, not extsock: Sends and Receives are ours, not the socket streams'. */
    private void configure(ExtendedSocket socket, RpingSetup setup) throws IOException {
        socket.setOption(IwarpOptions.STREAMS, false);
        socket.setOption(IwarpOptions.CRC, crc);
        socket.setOption(IwarpOptions.MPA_TIMEOUT, mpaTimeoutMillis);
        socket.setOption(IwarpOptions.SETUP, setup);
    }

    private void configure(ExtendedServerSocket server, RpingSetup setup) throws IOException {
        server.setOption(IwarpOptions.STREAMS, false);
        server.setOption(IwarpOptions.CRC, crc);
        server.setOption(IwarpOptions.MPA_TIMEOUT, mpaTimeoutMillis);
        server.setOption(IwarpOptions.SETUP, setup);
    }

    private static InetAddress resolve(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new UserError("unknown host: " + host, e);
        }
    }
}
