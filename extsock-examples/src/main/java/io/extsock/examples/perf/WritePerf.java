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
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * write_lat and write_bw. write_lat is perftest's ping-pong of RDMA Writes: each side waits
 * until the peer's Write changes the last byte of its own buffer, then writes back; no Send is
 * involved. Where perftest polls the memory, we wait with {@link IwarpConnection#await}, which
 * places the Write on the waiting thread. write_bw keeps Writes in flight to one remote buffer. Descriptors and the final
 * "done" go over the socket's stream.
 */
final class WritePerf implements PerfRunner {

    /** Writes in flight in write_bw, as perftest's default TX depth. */
    static final int DEPTH = 128;
    /** Polling that sees nothing for this long means the peer is gone. */
    private static final long STALL_NANOS = 30_000_000_000L;

    private final PerfParameters run;

    WritePerf(PerfParameters run) {
        this.run = run;
    }

    @Override
    public PerfResult client(PerfLink link) throws IOException, InterruptedException {
        return run.test().latency() ? pingPong(link, true) : stream(link);
    }

    @Override
    public void server(PerfLink link) throws IOException, InterruptedException {
        if (run.test().latency()) {
            pingPong(link, false);
        } else {
            sink(link);
        }
    }

    /** Both ends: byte 0 of a message is 1 on the last, its final byte the iteration's {@link #sequence}. */
    private PerfResult pingPong(PerfLink link, boolean client) throws IOException, InterruptedException {
        IwarpConnection verbs = link.verbs();
        int size = run.size();
        try (MemoryRegion inbox = verbs.register(ByteBuffer.allocateDirect(size),
                EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
             MemoryRegion outbox = verbs.register(ByteBuffer.allocateDirect(size), Set.of())) {
            RemoteBuffer peer = exchange(link, inbox.remote());
            WriteRequest write = new WriteRequest().gather(outbox.slice(0, size)).target(peer);
            ByteBuffer in = inbox.buffer();
            ByteBuffer out = outbox.buffer();
            LastByteArrives arrived = new LastByteArrives(in, size - 1);
            if (client) {
                Samples roundTrips = new PerfClock(run).measure((i, last) -> {
                    byte sequence = sequence(i);
                    out.put(0, (byte) (last ? 1 : 0)).put(size - 1, sequence);
                    long start = System.nanoTime();
                    verbs.post(write);
                    arrived.await(verbs, sequence);
                    long roundTrip = System.nanoTime() - start;
                    reapWrites(verbs);
                    return roundTrip;
                });
                return PerfResult.latency(run, roundTrips, 2);  // we saw the last Write: we close first
            }
            int unreaped = 0;
            for (long i = 0; ; i++) {
                byte sequence = sequence(i);
                arrived.await(verbs, sequence);
                boolean last = in.get(0) == 1;
                out.put(0, in.get(0)).put(size - 1, sequence);
                verbs.post(write);
                unreaped += 1 - reapWrites(verbs);
                if (last) {
                    break;
                }
            }
            try {
                for (; unreaped > 0; unreaped--) {
                    Completions.next(verbs.completions());  // our last Write leaves before we close
                }
            } catch (SocketException closedByTheClient) {
                // the client closes as soon as our last Write landed (see Sockets.awaitClose)
            }
            Sockets.awaitClose(link.socket);
            return null;
        }
    }

    /** Iteration {@code i}'s sequence number: 1 to 127, never 0, so a fresh buffer never matches. */
    private static byte sequence(long i) {
        return (byte) (i % 127 + 1);
    }

    /**
     * Waits until the peer's Write sets {@code buffer[index]} to {@code expected}. The wait
     * receives on this thread ({@link IwarpConnection#await}): the Write is placed here, with no
     * hand-off from the engine's thread. The condition is made once per run, not per wait.
     */
    private static final class LastByteArrives implements BooleanSupplier {
        private final ByteBuffer buffer;
        private final int index;
        private byte expected;

        LastByteArrives(ByteBuffer buffer, int index) {
            this.buffer = buffer;
            this.index = index;
        }

        void await(IwarpConnection verbs, byte sequence) throws IOException, InterruptedException {
            expected = sequence;
            if (!verbs.await(this, STALL_NANOS, TimeUnit.NANOSECONDS)) {
                throw new SocketException("no RDMA Write arrived in 30 s: the peer stopped responding");
            }
        }

        @Override
        public boolean getAsBoolean() {
            return buffer.get(index) == expected;
        }
    }

    /** Takes the completions of our own Writes that are there, without waiting; returns how many. */
    private static int reapWrites(IwarpConnection verbs) throws SocketException {
        String[] failure = new String[1];
        int reaped = verbs.completions().poll(completion -> {
            if (completion.status() != io.extsock.verbs.CompletionStatus.SUCCESS) {
                failure[0] = "RDMA Write failed: " + completion.status() + ": " + completion.detail();
            }
        }, 16);
        if (failure[0] != null) {
            throw new SocketException(failure[0]);
        }
        return reaped;
    }

    private PerfResult stream(PerfLink link) throws IOException, InterruptedException {
        IwarpConnection verbs = link.verbs();
        RemoteBuffer target = RemoteBuffers.receive(link.in());
        try (MemoryRegion source = verbs.register(ByteBuffer.allocateDirect(run.size()), Set.of());
             MemoryRegion fence = verbs.register(ByteBuffer.allocateDirect(1), EnumSet.of(Access.LOCAL_WRITE))) {
            WriteRequest write = new WriteRequest().gather(source.slice(0, run.size())).target(target);
            ReadRequest fenceRead = new ReadRequest().source(target.slice(0, 1)).sink(fence.slice(0, 1));
            PerfPipeline pipeline = new PerfPipeline(run, run.depthOr(DEPTH));
            PerfResult result = pipeline.run(verbs, new RepeatedPost(verbs, write, run.postList()), () -> {
                // A Write completes once handed to TCP. A Read behind the Writes is answered only
                // after they were placed (RFC 5040 ordering): its completion means all landed.
                verbs.post(fenceRead);
                try {
                    Completions.next(verbs.completions());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException();
                }
            });
            link.out().write(1);  // done: the server may deregister; we close first
            link.out().flush();
            return result;
        }
    }

    private void sink(PerfLink link) throws IOException {
        IwarpConnection verbs = link.verbs();
        try (MemoryRegion target = verbs.register(ByteBuffer.allocateDirect(run.size()),
                EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ))) {
            RemoteBuffers.send(link.out(), target.remote());
            if (link.in().read() < 0) {  // "done": the client read its fence, every Write landed
                throw new EOFException();
            }
        }
        Sockets.awaitClose(link.socket);
    }

    private static RemoteBuffer exchange(PerfLink link, RemoteBuffer mine) throws IOException {
        RemoteBuffers.send(link.out(), mine);
        return RemoteBuffers.receive(link.in());
    }
}
