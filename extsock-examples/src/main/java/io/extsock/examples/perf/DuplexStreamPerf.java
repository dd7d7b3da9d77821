package io.extsock.examples.perf;

import io.extsock.examples.cli.Sockets;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReference;

/**
 * tcp_bw with -b: both ends write messages at once on one connection while a thread of theirs
 * reads the peer's. A message's first byte is 1 on the last. An end's time runs from its first
 * measured write until it has written its last message and read the peer's last (perftest's
 * bidirectional time: until both its sends and its receives are done). Then each end sends the
 * bytes it received and its figures; the client checks and reports the sum.
 */
final class DuplexStreamPerf implements PerfRunner {

    private final PerfParameters run;
    private final boolean client;

    DuplexStreamPerf(PerfParameters run, boolean client) {
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
        InputStream in = link.in();
        OutputStream out = link.out();
        long[] received = new long[1];
        long[] lastReceivedAt = new long[1];
        AtomicReference<IOException> readFailure = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            byte[] message = new byte[run.size()];
            try {
                while (true) {
                    int n = in.readNBytes(message, 0, message.length);
                    received[0] += n;
                    if (n < message.length) {
                        throw new EOFException("the peer closed after " + received[0] + " bytes");
                    }
                    if (message[0] != 0) {
                        lastReceivedAt[0] = System.nanoTime();
                        return;
                    }
                }
            } catch (IOException e) {
                readFailure.set(e);
            }
        }, "tcp_bw -b reader");
        reader.setDaemon(true);
        reader.start();

        int batch = run.postList();  // messages per write (-l/--post_list)
        byte[] messages = new byte[run.size() * batch];
        PerfClock clock = new PerfClock(run);
        Samples completions = new Samples(run.iterations());
        Samples writeTimes = new Samples(run.iterations());
        long sent = 0;
        for (long i = 0, warmUp = clock.warmUp(); ; ) {
            if (i == warmUp) {
                clock.start();
            }
            int count = 0;
            boolean last = false;
            while (count < (i < warmUp ? 1 : batch) && !last) {  // the warm-up a message at a time
                last = i + count >= warmUp && clock.isLast(i + count - warmUp);
                count++;
            }
            int lastAt = (count - 1) * run.size();
            messages[lastAt] = (byte) (last ? 1 : 0);  // the reader stops at the message that says so
            long start = System.nanoTime();
            out.write(messages, 0, count * run.size());
            long end = System.nanoTime();
            sent += (long) count * run.size();
            if (i >= warmUp) {
                for (int m = 0; m < count; m++) {
                    completions.add(end);
                    writeTimes.add(end - start);
                }
            }
            i += count;
            if (last) {
                break;
            }
        }
        out.flush();
        long wroteAll = System.nanoTime();
        reader.join();  // the reader ends at the peer's last message, or on a failure
        if (readFailure.get() != null) {
            throw readFailure.get();
        }
        long elapsed = Math.max(wroteAll, lastReceivedAt[0]) - clock.startNanos();
        PerfResult mine = PerfResult.bandwidth(run, completions, elapsed, writeTimes);

        ByteBuffer report = ByteBuffer.allocate(8 + PerfResult.Figures.ENCODED_LENGTH).putLong(received[0]);
        mine.figures().writeTo(report);
        out.write(report.array());
        out.flush();
        byte[] theirs = in.readNBytes(report.capacity());
        if (theirs.length < report.capacity()) {
            throw new EOFException((client ? "the server" : "the client") + " closed before its figures");
        }
        ByteBuffer peer = ByteBuffer.wrap(theirs);
        long peerReceived = peer.getLong();
        if (peerReceived != sent) {
            throw new IOException("the peer received " + peerReceived + " bytes of " + sent);
        }
        return mine.plus(PerfResult.Figures.readFrom(peer));
    }
}
