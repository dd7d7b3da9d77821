package io.extsock.examples.file;

import io.extsock.examples.cli.ConnectionOptions;
import io.extsock.examples.cli.Endpoint;
import io.extsock.examples.cli.ServerLoop;
import io.extsock.examples.cli.Sockets;
import io.extsock.examples.cli.Units;
import io.extsock.examples.cli.UserError;
import java.io.PrintWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code extsock file serve FILE}: hands the file to every client that asks, by the method it asks for. */
@Command(name = "serve", description = "Serves one file to every client that connects, by the method each asks for.")
final class FileServeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    ConnectionOptions connection;

    @Parameters(index = "0", paramLabel = "FILE", description = "The file to serve (any size).")
    Path file;

    @Option(names = "--iwarp", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Switch every connection to IWARP_MODE (default: on; --no-iwarp for plain TCP over "
                    + "java.nio channels, which allows --method stream and transferTo).")
    boolean iwarp;

    @Mixin
    ServerLoop loop;

    @Override
    public Integer call() throws Exception {
        if (!Files.exists(file)) {
            throw new UserError("no such file: " + file);
        }
        if (!Files.isRegularFile(file)) {
            throw new UserError("not a regular file: " + file);
        }
        if (!Files.isReadable(file)) {
            throw new UserError("permission denied: " + file);
        }
        FileSender sender = new FileSender(file, iwarp);
        // Plain TCP listens on a java.nio channel: what a program without extsock has, and
        // --method transferTo's sendfile needs the accepted sockets' channels.
        ServerSocket server = iwarp ? connection.listen(true) : connection.endpoint.listenOnChannel();
        PrintWriter out = spec.commandLine().getOut();
        out.println("extsock file serve: " + file.getFileName() + " (" + Units.bytes(Files.size(file)) + "), "
                + (iwarp ? connection.listeningLine(server, true)
                        : Endpoint.listeningOn(server) + ", plain TCP (java.nio channels; --method stream or transferTo)"));
        out.flush();
        loop.run(server, spec.commandLine(), "sending " + file.getFileName(), socket -> {
            if (iwarp) {
                Sockets.noDelayForIwarp(socket);  // before the first read switches it
            }
            FileSender.Outcome outcome = sender.serve(socket);
            if (outcome == null) {
                return null;  // the client went away before the transfer (it says why)
            }
            return "sent " + file.getFileName() + " (" + Units.bytes(outcome.bytes()) + ") to "
                    + socket.getRemoteSocketAddress() + " by " + outcome.method() + " in " + Units.seconds(outcome.nanos())
                    + " (" + Units.throughput(outcome.bytes(), outcome.nanos()) + "), SHA-256 "
                    + Sha256.hex(outcome.sha256()) + ", "
                    + (outcome.clientVerified() ? "verified by the client" : "NOT verified by the client");
        });
        return 0;
    }
}
