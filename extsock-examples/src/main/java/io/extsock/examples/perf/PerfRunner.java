package io.extsock.examples.perf;

import io.extsock.verbs.IwarpSetup;
import java.io.IOException;

/** One perf test, either end, on one connection. A new instance per connection and end. */
interface PerfRunner {

    /** Registers memory and posts Receives before the peer's first byte; null if there is nothing to do. */
    default IwarpSetup setup() {
        return null;
    }

    /** The measuring end. */
    PerfResult client(PerfLink link) throws IOException, InterruptedException;

    /** The passive end. */
    void server(PerfLink link) throws IOException, InterruptedException;

    /** The runner for a run, for the client's end or the server's. */
    static PerfRunner of(PerfParameters run, boolean client) {
        if (run.bidirectional() && !run.test().latency()) {
            return switch (run.test()) {
                case send_bw -> new DuplexSendPerf(run, client);
                case tcp_bw -> new DuplexStreamPerf(run, client);
                default -> new DuplexRdmaPerf(run, client);
            };
        }
        return switch (run.test()) {
            case send_lat, send_bw -> new SendPerf(run, client);
            case write_lat, write_bw -> new WritePerf(run);
            case read_lat, read_bw -> new ReadPerf(run);
            case tcp_lat, tcp_rr, tcp_bw -> new StreamPerf(run);
        };
    }
}
