package io.extsock.examples;

import io.extsock.ExtendedServerSocket;
import java.io.PrintWriter;
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
            description = "Switch every connection to IWARP_MODE (default: on; --no-iwarp for plain TCP, "
                    + "which allows only --method stream).")
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
        ExtendedServerSocket server = connection.listen(iwarp);
        PrintWriter out = spec.commandLine().getOut();
        out.println("extsock file serve: " + file.getFileName() + " (" + Units.bytes(Files.size(file)) + "), "
                + connection.listeningLine(server, iwarp));
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
