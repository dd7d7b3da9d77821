package io.extsock.examples.perf;

import io.extsock.ExtendedServerSocket;
import io.extsock.examples.cli.Endpoint;
import io.extsock.examples.cli.ServerLoop;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code extsock perf server}: the passive end of every test; the client chooses test, size and mode. */
@Command(name = "server", description = "Serves perf runs: the client chooses the test, the message size and the mode.")
final class PerfServerCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    Endpoint endpoint;

    @Mixin
    ServerLoop loop;

    @Override
    public Integer call() throws Exception {
        ExtendedServerSocket server = endpoint.listen(socket -> { });
        PrintWriter out = spec.commandLine().getOut();
        out.println("extsock perf server: " + Endpoint.listeningOn(server) + " (each run chooses its test, size and mode)");
        out.flush();
        loop.run(server, spec.commandLine(), "running a test", socket -> {
            PerfParameters run = PerfServer.serve(socket);
            return "ran " + run.test() + " (" + run.mode() + ", " + run.size() + " B" + (run.bidirectional() ? ", both ways" : "")
                    + (run.test() == PerfTest.send_bw ? ", " + SendPerf.receivesPosted(run) + " Receives posted" : "")
                    + ") for " + socket.getRemoteSocketAddress();
        });
        return 0;
    }
}
