package io.extsock.examples.perf;

import io.extsock.examples.cli.Completions;
import io.extsock.examples.cli.RemoteBuffers;
import io.extsock.examples.cli.Sockets;
import io.extsock.verbs.Access;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.RemoteBuffer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.EnumSet;

/**
 * read_lat and read_bw: the client RDMA-Reads a buffer the server registered; the server's
 * application does nothing meanwhile (its engine answers). The buffer's descriptor, and the
 * final "done", go over the socket's stream.
 */
final class ReadPerf implements PerfRunner {

    /** Reads in flight in read_bw (beyond the negotiated ORD they wait their turn in the engine). */
    static final int DEPTH = 128;

    private final PerfParameters run;

    ReadPerf(PerfParameters run) {
        this.run = run;
    }

    @Override
    public PerfResult client(PerfLink link) throws IOException, InterruptedException {
        IwarpConnection verbs = link.verbs();
        RemoteBuffer source = RemoteBuffers.receive(link.in());
        int agreed = verbs.settings().ord();
        if (run.outstandingReads() > 0 && agreed != run.outstandingReads()) {
            throw new java.net.SocketException("asked for " + run.outstandingReads() + " outstanding Reads (-o), the "
                    + "connection agreed to " + agreed);
        }
        try (MemoryRegion sink = verbs.register(ByteBuffer.allocateDirect(run.size()), EnumSet.of(Access.LOCAL_WRITE))) {
            ReadRequest read = new ReadRequest().source(source).sink(sink.slice(0, run.size()));
            PerfResult result = run.test().latency() ? oneAtATime(verbs, read) : inFlight(verbs, read);
            link.out().write(1);  // done: the server may deregister; we sent the last message, we close first
            link.out().flush();
            return result;
        }
    }

    private PerfResult oneAtATime(IwarpConnection verbs, ReadRequest read) throws IOException, InterruptedException {
        Samples times = new PerfClock(run).measure((i, last) -> {
            long start = System.nanoTime();
            verbs.post(read);
            Completions.next(verbs.completions());
            return System.nanoTime() - start;
        });
        return PerfResult.latency(run, times, 1);  // a Read is a round trip already, as perftest reports it
    }

    private PerfResult inFlight(IwarpConnection verbs, ReadRequest read) throws IOException, InterruptedException {
        PerfPipeline pipeline = new PerfPipeline(run, run.depthOr(DEPTH));
        return pipeline.run(verbs, new RepeatedPost(verbs, read, run.postList()), () -> { });
    }

    @Override
    public void server(PerfLink link) throws IOException {
        IwarpConnection verbs = link.verbs();
        try (MemoryRegion exposed = verbs.register(ByteBuffer.allocateDirect(run.size()),
                EnumSet.of(Access.REMOTE_READ))) {
            RemoteBuffers.send(link.out(), exposed.remote());
            if (link.in().read() < 0) {
                throw new java.io.EOFException();
            }
        }
        Sockets.awaitClose(link.socket);
    }
}
