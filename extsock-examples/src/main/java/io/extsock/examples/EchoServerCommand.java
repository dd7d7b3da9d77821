package io.extsock.examples;

import io.extsock.ExtendedServerSocket;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
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
@Command(name = "server", mixinStandardHelpOptions = true,
        description = "Echoes every connection until the client half-closes.")
final class EchoServerCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    ConnectionOptions connection;

    @Option(names = "--iwarp", description = "Switch every accepted connection to IWARP_MODE (default: off, "
            + "plain TCP passthrough).")
    boolean iwarp;

    @Option(names = "--connections", paramLabel = "N", defaultValue = "0",
            description = "Exit after serving N connections (default: serve until stopped).")
    int connections;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Thread> handlers = new ArrayList<>();
        try (ExtendedServerSocket server = connection.listen(iwarp)) {
            out.println("extsock echo server: " + ConnectionOptions.listeningLine(server, iwarp, connection));
            out.flush();
            for (int served = 0; connections == 0 || served < connections; served++) {
                Socket socket = server.accept();
                Thread handler = new Thread(() -> echo(socket, err), "echo " + socket.getRemoteSocketAddress());
                handler.start();
                handlers.add(handler);
            }
        }
        for (Thread handler : handlers) {
            handler.join();
        }
        return 0;
    }

    private void echo(Socket socket, PrintWriter err) {
        String peer = String.valueOf(socket.getRemoteSocketAddress());
        try (socket) {
            if (iwarp) {
                Sockets.noDelayForIwarp(socket);  // before the first read switches it
            }
            StreamEcho.echo(socket);
        } catch (IOException e) {
            // One connection's failure (a client not in IWARP_MODE, say) does not stop the server.
            synchronized (err) {
                err.println(UserErrorHandler.prefix(spec.commandLine()) + "connection from " + peer + ": "
                        + UserErrors.during("echoing", e).getMessage());
                err.flush();
            }
        }
    }
}
