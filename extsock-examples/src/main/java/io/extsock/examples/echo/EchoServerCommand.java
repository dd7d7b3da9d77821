package io.extsock.examples.echo;

import io.extsock.ExtendedServerSocket;
import io.extsock.examples.cli.ConnectionOptions;
import io.extsock.examples.cli.ServerLoop;
import io.extsock.examples.cli.Sockets;
import io.extsock.examples.cli.Units;
import io.extsock.examples.cli.UserErrorHandler;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code extsock echo server}: echoes every connection with {@link StreamEcho}, the same
 * socket code whatever the mode; one thread per connection.
 */
@Command(name = "server", description = "Echoes every connection until the client half-closes.")
final class EchoServerCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    ConnectionOptions connection;

    @Option(names = "--iwarp", description = "Switch every accepted connection to IWARP_MODE (default: off, "
            + "plain TCP passthrough).")
    boolean iwarp;

    @Mixin
    ServerLoop loop;

    @Override
    public Integer call() throws Exception {
        ExtendedServerSocket server = connection.listen(iwarp);
        PrintWriter out = spec.commandLine().getOut();
        out.println("extsock echo server: " + connection.listeningLine(server, iwarp));
        out.flush();
        boolean verbose = UserErrorHandler.verbose(spec.commandLine());
        loop.run(server, spec.commandLine(), "echoing", socket -> {
            if (iwarp) {
                Sockets.noDelayForIwarp(socket);  // before the first read switches it
            }
            String peer = "connection from " + socket.getRemoteSocketAddress();
            long start = System.nanoTime();
            if (verbose) {  // the switch happens here, on the first use: the line says what was agreed
                ServerLoop.print(out, peer + ": " + ConnectionOptions.agreed(socket));
            }
            long echoed = StreamEcho.echo(socket);
            return verbose ? peer + ": echoed " + Units.bytes(echoed) + " in " + Units.seconds(System.nanoTime() - start)
                    + ", closed by the client" : null;
        });
        return 0;
    }
}
