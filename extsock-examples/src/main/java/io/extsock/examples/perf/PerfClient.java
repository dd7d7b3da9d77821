package io.extsock.examples.perf;

import io.extsock.examples.cli.Endpoint;
import io.extsock.examples.cli.UserErrors;
import java.io.IOException;

/** The measuring end of one perf run: the command's, and {@code perf compare}'s. */
final class PerfClient {

    private PerfClient() {
    }

    static PerfResult run(Endpoint server, PerfParameters run) throws InterruptedException {
        PerfRunner runner = PerfRunner.of(run, true);
        try (PerfLink link = PerfLink.connect(server, run, runner.setup())) {
            return runner.client(link);
        } catch (IOException e) {
            throw UserErrors.during("running " + run.test() + " (" + run.size() + " B) with " + server.peer(), e);
        }
    }
}
