package io.extsock.examples.file;

import io.extsock.examples.cli.ConnectionOptions;
import io.extsock.examples.cli.Units;
import io.extsock.examples.cli.UserError;
import io.extsock.examples.cli.UserErrors;
import java.io.EOFException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.Socket;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code extsock file get}: fetches the served file, verifies its SHA-256, then saves it. */
@Command(name = "get", description = "Gets the file a server serves. It is written under a temporary name, checked against "
                + "the server's SHA-256 and only then renamed; on any failure nothing is left behind.")
final class FileGetCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    ConnectionOptions connection;

    @Option(names = "--method", paramLabel = "METHOD",
            description = "stream: over the socket's stream; write: the server RDMA-Writes into our registered "
                    + "buffers, which we write to the file; read: we RDMA-Read the server's file (registered as "
                    + "a file region) into such buffers; transferTo: plain TCP over java.nio "
                    + "channels, the server's FileChannel.transferTo (sendfile) and our channel reads, needs --no-iwarp "
                    + "on both ends (default: write in IWARP_MODE, stream with --no-iwarp).")
    FileMethod method;

    @Option(names = {"-o", "--output"}, paramLabel = "PATH",
            description = "Where to save: a file, or a directory to save in under the server's name "
                    + "(default: the server's name in the current directory).")
    Path output;

    @Option(names = "--force", description = "Replace the output file if it exists.")
    boolean force;

    @Option(names = "--iwarp", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Switch the connection to IWARP_MODE (default: on; --no-iwarp for plain TCP, which "
                    + "allows --method stream and transferTo).")
    boolean iwarp;

    @Option(names = "--progress", paramLabel = "WHEN", defaultValue = "AUTO",
            description = "Progress bar with rate and ETA on standard error: AUTO (on a terminal), ALWAYS, NEVER "
                    + "(default: ${DEFAULT-VALUE}).")
    Progress.Mode progress;

    @Override
    public Integer call() throws Exception {
        if (method == null) {
            method = iwarp ? FileMethod.write : FileMethod.stream;
        }
        if (method.oneSided() && !iwarp) {
            throw new ParameterException(spec.commandLine(), "--method " + method
                    + " is one-sided RDMA and needs IWARP_MODE: drop --no-iwarp, or use --method stream or transferTo");
        }
        if (method.plainTcpOnly() && iwarp) {
            throw new ParameterException(spec.commandLine(), "--method " + method + " is plain TCP over java.nio "
                    + "channels, without IWARP_MODE: add --no-iwarp (and serve with --no-iwarp)");
        }
        connection.checkClient();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        FileReceiver receiver = new FileReceiver(output, force,
                (name, size) -> new Progress(err, name, size, progress));
        FileReceiver.Outcome outcome;
        try (Socket socket = method.plainTcpOnly() ? connection.connectOnChannel() : connection.connect(iwarp)) {
            outcome = receiver.receive(socket, method);
        } catch (EOFException e) {
            if (!iwarp && FileReceiver.NO_OFFER.equals(e.getMessage())) {
                throw new UserError(FileReceiver.NO_OFFER + " (is it in IWARP_MODE? then drop --no-iwarp)", e);
            }
            throw UserErrors.during("getting the file from " + connection.peer(), e);
        } catch (IOException e) {
            throw UserErrors.during("getting the file from " + connection.peer(), e);
        }
        out.println("received " + outcome.name() + " (" + Units.bytes(outcome.bytes()) + ") by " + outcome.method()
                + " in " + Units.seconds(outcome.transferNanos()) + " ("
                + Units.throughput(outcome.bytes(), outcome.transferNanos()) + "), SHA-256 "
                + Sha256.hex(outcome.sha256()) + " verified in " + Units.seconds(outcome.verifyNanos())
                + ", saved as " + outcome.saved());
        out.flush();
        return 0;
    }
}
