package io.extsock.examples.perf;

import io.extsock.ExtendedSocket;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;

/** The server's end of any perf run: the command's, and {@code perf compare}'s in-process one. */
final class PerfServer {

    /** The largest message a run may use. */
    static final int MAX_SIZE = 64 << 20;

    private PerfServer() {
    }

    /**
     * Serves one connection: reads the run, switches to IWARP_MODE if it needs (which takes an
     * ExtendedSocket), runs the server's end.
     */
    static PerfParameters serve(Socket socket) throws IOException, InterruptedException {
        socket.setTcpNoDelay(true);
        PerfParameters run = PerfParameters.readFrom(socket.getInputStream());
        if (run.size() < 1 || run.size() > MAX_SIZE) {
            throw new SocketException("message size out of range: " + run.size());
        }
        // Depths of 0 leave them to the test.
        String problem = run.depth() != 0 ? PerfClientCommand.txDepthProblem(run.depth(),
                run.test() == PerfTest.send_bw && run.bidirectional()) : null;
        if (problem == null && run.receiveDepth() != 0) {
            problem = SendPerf.receiveDepthProblem(run.receiveDepth(), run.size(), run.bidirectional());
        }
        if (problem == null) {
            problem = PerfClientCommand.listAndReadsProblem(run);
        }
        if (problem != null) {
            throw new SocketException("the client asked for what this server refuses: " + problem);
        }
        if (run.iwarp() && !(socket instanceof ExtendedSocket)) {
            throw new SocketException(run.test() + " needs IWARP_MODE: this end is a plain java.net.Socket");
        }
        PerfRunner runner = PerfRunner.of(run, false);
        try (PerfLink link = PerfLink.accept(socket, run, runner.setup())) {
            runner.server(link);
        }
        return run;
    }
}
