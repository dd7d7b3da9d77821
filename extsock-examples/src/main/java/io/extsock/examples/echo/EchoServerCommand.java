package io.extsock.examples.echo;

import io.extsock.ExtendedServerSocket;
import io.extsock.examples.cli.ConnectionOptions;
import io.extsock.examples.cli.ServerLoop;
import io.extsock.examples.cli.Sockets;
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
        loop.run(server, spec.commandLine(), "echoing", socket -> {
            if (iwarp) {
                Sockets.noDelayForIwarp(socket);  // before the first read switches it
            }
            StreamEcho.echo(socket);
            return null;
        });
        return 0;
    }
}
