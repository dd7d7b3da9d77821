package io.extsock.examples;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code extsock perf server}: the passive end of every test; the client chooses test, size and mode. */
@Command(name = "server", mixinStandardHelpOptions = true,
        description = "Serves perf runs: the client chooses the test, the message size and the mode.")
final class PerfServerCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    Endpoint endpoint;

    @Option(names = "--connections", paramLabel = "N", defaultValue = "0",
            description = "Exit after N connections (each size of a run is one) (default: serve until stopped).")
    int connections;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        List<Thread> handlers = new ArrayList<>();
        try (ExtendedServerSocket server = endpoint.listen(socket -> { })) {
            out.println("extsock perf server: " + Endpoint.listeningOn(server)
                    + " (each run chooses its test, size and mode)");
            out.flush();
            for (int served = 0; connections == 0 || served < connections; served++) {
                ExtendedSocket socket = server.accept();
                Thread handler = new Thread(() -> serve(socket), "perf " + socket.getRemoteSocketAddress());
                handler.start();
                handlers.add(handler);
            }
        }
        for (Thread handler : handlers) {
            handler.join();
        }
        return 0;
    }

    private void serve(ExtendedSocket socket) {
        String peer = String.valueOf(socket.getRemoteSocketAddress());
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (socket) {
            PerfParameters run = PerfServer.serve(socket);
            synchronized (out) {
                out.println("ran " + run.test() + " (" + run.mode() + ", " + run.size() + " B) for " + peer);
                out.flush();
            }
        } catch (IOException e) {
            synchronized (err) {
                err.println(UserErrorHandler.prefix(spec.commandLine()) + "connection from " + peer + ": "
                        + UserErrors.during("running a test", e).getMessage());
                err.flush();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
