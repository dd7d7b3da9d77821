package io.extsock.examples.perf;

import io.extsock.examples.cli.Sockets;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * tcp_lat, tcp_rr and tcp_bw: the socket's streams, whatever carries them (java.net.Socket, passthrough
 * ExtendedSocket, or IWARP_MODE's Sends). Messages carry a flag in their first byte: 1 marks
 * the last.
 */
final class StreamPerf implements PerfRunner {

    private final PerfParameters run;

    StreamPerf(PerfParameters run) {
        this.run = run;
    }

    @Override
    public PerfResult client(PerfLink link) throws IOException, InterruptedException {
        return run.test().latency() ? pingPong(link) : stream(link);
    }

    @Override
    public void server(PerfLink link) throws IOException {
        if (run.test().latency()) {
            echo(link);
        } else {
            count(link);
        }
    }

    private PerfResult pingPong(PerfLink link) throws IOException, InterruptedException {
        OutputStream out = link.out();
        InputStream in = link.in();
        byte[] message = new byte[run.size()];
        byte[] reply = new byte[run.size()];
        Samples roundTrips = new PerfClock(run).measure((i, last) -> {
            message[0] = (byte) (last ? 1 : 0);
            long start = System.nanoTime();
            out.write(message);
            if (in.readNBytes(reply, 0, reply.length) < reply.length) {
                throw new EOFException();
            }
            return System.nanoTime() - start;
        });
        // tcp_lat: one way, half the round trip (perftest's ping-pong); tcp_rr: the whole request/response.
        // We read the last message: we close first.
        return PerfResult.latency(run, roundTrips, run.test() == PerfTest.tcp_rr ? 1 : 2);
    }

    private void echo(PerfLink link) throws IOException {
        OutputStream out = link.out();
        InputStream in = link.in();
        byte[] message = new byte[run.size()];
        while (true) {
            if (in.readNBytes(message, 0, message.length) < message.length) {
                throw new EOFException();
            }
            if (message[0] != 0) {
                Sockets.writeLast(link.socket, message);
                Sockets.awaitClose(link.socket);
                return;
            }
            out.write(message);
        }
    }

    /** Writes -l/--post_list messages at a time (one unless given), each write of all of them. */
    private PerfResult stream(PerfLink link) throws IOException {
        OutputStream out = link.out();
        int batch = run.postList();
        byte[] messages = new byte[run.size() * batch];
        PerfClock clock = new PerfClock(run);
        Samples completions = new Samples(run.iterations());
        Samples writeTimes = new Samples(run.iterations());
        long sent = 0;
        long warmUp = clock.warmUp();
        for (long i = 0; i < warmUp; i++) {
            out.write(messages, 0, run.size());
            sent += run.size();
        }
        clock.start();
        for (long i = 0; ; ) {
            int count = 0;
            boolean last = false;
            while (count < batch && !last) {
                last = clock.isLast(i + count);
                count++;
            }
            long start = System.nanoTime();
            out.write(messages, 0, count * run.size());
            long end = System.nanoTime();
            sent += (long) count * run.size();
            for (int m = 0; m < count; m++) {
                completions.add(end);
                writeTimes.add(end - start);
            }
            i += count;
            if (last) {
                break;
            }
        }
        link.socket.shutdownOutput();
        long received = new DataInputStream(link.in()).readLong();  // all of it arrived
        long elapsed = System.nanoTime() - clock.startNanos();
        if (received != sent) {
            throw new IOException("the server received " + received + " bytes of " + sent);
        }
        return PerfResult.bandwidth(run, completions, elapsed, writeTimes);
    }

    private void count(PerfLink link) throws IOException {
        InputStream in = link.in();
        byte[] buffer = new byte[Math.max(64 * 1024, run.size())];
        long received = 0;
        for (int n; (n = in.read(buffer)) >= 0; ) {
            received += n;
        }
        Sockets.writeLast(link.socket, java.nio.ByteBuffer.allocate(8).putLong(received).array());
        Sockets.awaitClose(link.socket);
    }
}
