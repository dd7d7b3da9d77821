package io.extsock.examples.perf;

import io.extsock.examples.cli.Completions;
import io.extsock.examples.cli.RemoteBuffers;
import io.extsock.examples.cli.Sockets;
import io.extsock.verbs.Access;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.WriteRequest;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;

/**
 * write_bw and read_bw with -b: both ends run the same pipeline at once, each into (or out of)
 * a buffer the other registered, on one connection. Descriptors and each end's figures go over
 * the socket's stream; the client reports the sum, as perftest does.
 *
 * <p>An end sends its figures only once its own requests are done: a write_bw end after a Read
 * behind its Writes came back (so they were all placed), a read_bw end after its last Read
 * completed. So an end that has read the peer's figures may deregister its buffers.
 */
final class DuplexRdmaPerf implements PerfRunner {

    private final PerfParameters run;
    private final boolean client;

    DuplexRdmaPerf(PerfParameters run, boolean client) {
        this.run = run;
        this.client = client;
    }

    @Override
    public PerfResult client(PerfLink link) throws IOException, InterruptedException {
        return both(link);  // we read the server's figures last: we close first
    }

    @Override
    public void server(PerfLink link) throws IOException, InterruptedException {
        both(link);
        Sockets.awaitClose(link.socket);
    }

    private PerfResult both(PerfLink link) throws IOException, InterruptedException {
        IwarpConnection verbs = link.verbs();
        int size = run.size();
        boolean write = run.test() == PerfTest.write_bw;
        try (MemoryRegion local = verbs.register(ByteBuffer.allocateDirect(size),
                write ? Set.of() : EnumSet.of(Access.LOCAL_WRITE));
             MemoryRegion exposed = verbs.register(ByteBuffer.allocateDirect(size), write
                     ? EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ)
                     : EnumSet.of(Access.REMOTE_READ));
             MemoryRegion fence = verbs.register(ByteBuffer.allocateDirect(1), EnumSet.of(Access.LOCAL_WRITE))) {
            RemoteBuffers.send(link.out(), exposed.remote());
            RemoteBuffer peer = RemoteBuffers.receive(link.in());
            PerfPipeline pipeline = new PerfPipeline(run, run.depthOr(write ? WritePerf.DEPTH : ReadPerf.DEPTH));
            PerfResult mine;
            if (write) {
                WriteRequest request = new WriteRequest().gather(local.slice(0, size)).target(peer);
                ReadRequest fenceRead = new ReadRequest().source(peer.slice(0, 1)).sink(fence.slice(0, 1));
                mine = pipeline.run(verbs, new RepeatedPost(verbs, request, run.postList()), () -> {
                    // RFC 5040 ordering: the Read is answered after every Write before it was placed
                    verbs.post(fenceRead);
                    try {
                        Completions.next(verbs.completions());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InterruptedIOException();
                    }
                });
            } else {
                ReadRequest request = new ReadRequest().source(peer).sink(local.slice(0, size));
                mine = pipeline.run(verbs, new RepeatedPost(verbs, request, run.postList()), () -> { });
            }
            link.out().write(mine.figures().encoded());
            link.out().flush();
            byte[] theirs = link.in().readNBytes(PerfResult.Figures.ENCODED_LENGTH);
            if (theirs.length < PerfResult.Figures.ENCODED_LENGTH) {
                throw new EOFException((client ? "the server" : "the client") + " closed before its figures");
            }
            return mine.plus(PerfResult.Figures.readFrom(ByteBuffer.wrap(theirs)));
        }
    }
}
