package io.extsock.examples;

import io.extsock.ExtendedServerSocket;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code extsock file serve FILE}: hands the file to every client that asks, by the method it asks for. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Serves one file to every client that connects, by the method each asks for.")
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

    @Option(names = "--connections", paramLabel = "N", defaultValue = "0",
            description = "Exit after serving N connections (default: serve until stopped).")
    int connections;

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
        PrintWriter out = spec.commandLine().getOut();
        FileSender sender = new FileSender(file, iwarp);
        List<Thread> handlers = new ArrayList<>();
        try (ExtendedServerSocket server = connection.listen(iwarp)) {
            out.println("extsock file serve: " + file.getFileName() + " (" + Units.bytes(Files.size(file)) + "), "
                    + ConnectionOptions.listeningLine(server, iwarp, connection));
            out.flush();
            for (int served = 0; connections == 0 || served < connections; served++) {
                Socket socket = server.accept();
                Thread handler = new Thread(() -> serve(sender, socket), "file " + socket.getRemoteSocketAddress());
                handler.start();
                handlers.add(handler);
            }
        }
        for (Thread handler : handlers) {
            handler.join();
        }
        return 0;
    }

    private void serve(FileSender sender, Socket socket) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String peer = String.valueOf(socket.getRemoteSocketAddress());
        try (socket) {
            if (iwarp) {
                Sockets.noDelayForIwarp(socket);  // before the first read switches it
            }
            FileSender.Outcome outcome = sender.serve(socket);
            if (outcome != null) {
                synchronized (out) {
                    out.println("sent " + file.getFileName() + " (" + Units.bytes(outcome.bytes()) + ") to " + peer
                            + " by " + outcome.method() + " in " + Units.seconds(outcome.nanos()) + " ("
                            + Units.throughput(outcome.bytes(), outcome.nanos()) + "), SHA-256 "
                            + Sha256.hex(outcome.sha256()) + ", "
                            + (outcome.clientVerified() ? "verified by the client" : "NOT verified by the client"));
                    out.flush();
                }
            }
        } catch (IOException | RuntimeException e) {
            String line = e instanceof UserError ? e.getMessage()
                    : e instanceof IOException io ? UserErrors.during("sending " + file.getFileName(), io).getMessage()
                    : UserErrors.message(e);
            synchronized (err) {
                err.println(UserErrorHandler.prefix(spec.commandLine()) + "connection from " + peer + ": " + line);
                err.flush();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
