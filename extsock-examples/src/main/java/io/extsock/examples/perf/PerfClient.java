package io.extsock.examples.perf;

import io.extsock.examples.cli.ConnectionOptions;
import io.extsock.examples.cli.Endpoint;
import io.extsock.examples.cli.UserErrors;
import java.io.IOException;

/** The measuring end of one perf run: the command's, and {@code perf compare}'s. */
final class PerfClient {

    private PerfClient() {
    }

    /** A command's first run, and what its connection's negotiation agreed on (null for a plain socket). */
    record FirstRun(PerfResult result, String agreed) {
    }

    static PerfResult run(Endpoint server, PerfParameters run) throws InterruptedException {
        return run(server, run, false).result();
    }

    /** Runs, and says what the connection agreed on: for the header, which follows the first connection. */
    static FirstRun runFirst(Endpoint server, PerfParameters run) throws InterruptedException {
        return run(server, run, true);
    }

    private static FirstRun run(Endpoint server, PerfParameters run, boolean describe) throws InterruptedException {
        PerfRunner runner = PerfRunner.of(run, true);
        try (PerfLink link = PerfLink.connect(server, run, runner.setup())) {
            String agreed = describe ? ConnectionOptions.agreedSettings(link.socket) : null;
            return new FirstRun(runner.client(link), agreed);
        } catch (IOException e) {
            throw UserErrors.during("running " + run.test() + " (" + run.size() + " B) with " + server.peer(), e);
        }
    }
}
