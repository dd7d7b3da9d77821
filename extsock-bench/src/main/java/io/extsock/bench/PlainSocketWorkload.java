package io.extsock.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A program that knows nothing of extsock, for {@link AgentOverhead} to run with and without the
 * agent: both ends of one plain {@code java.net.Socket} connection in this JVM (a server thread
 * and the main thread), a 64 B ping-pong and a stream of 64 KiB writes, each in five batches after
 * one of warm-up. It prints two lines, {@code pingpong_us ROUND_TRIP} and {@code stream_mbps
 * MB_PER_SECOND}, each the median batch's.
 * It uses java.net only, so that under the agent its sockets are the agent's.
 *
 * <p>Usage: {@code PlainSocketWorkload ROUND_TRIPS STREAM_MIB} (each in all five batches)
 */
public final class PlainSocketWorkload {

    private static final int PING_SIZE = 64;
    private static final int WRITE_SIZE = 64 * 1024;
    /** Each measurement runs in this many batches after one batch of warm-up; the median batch counts. */
    private static final int BATCHES = 5;

    private PlainSocketWorkload() {
    }

    public static void main(String[] args) throws Exception {
        int roundTrips = Integer.parseInt(args[0]);
        long streamBytes = Long.parseLong(args[1]) << 20;
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread server = new Thread(() -> serve(listener, roundTrips, streamBytes), "workload-server");
            server.setDaemon(true);
            server.start();
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), listener.getLocalPort())) {
                socket.setTcpNoDelay(true);
                InputStream in = socket.getInputStream();
                OutputStream out = socket.getOutputStream();
                pingPong(in, out, roundTrips / BATCHES);  // warm-up
                double[] roundTripMicros = new double[BATCHES];
                for (int batch = 0; batch < BATCHES; batch++) {
                    long start = System.nanoTime();
                    pingPong(in, out, roundTrips / BATCHES);
                    roundTripMicros[batch] = (System.nanoTime() - start) / 1_000.0 / (roundTrips / BATCHES);
                }
                stream(out, streamBytes / BATCHES);  // warm-up
                in.read();  // the server read it all
                double[] megabytesPerSecond = new double[BATCHES];
                for (int batch = 0; batch < BATCHES; batch++) {
                    long start = System.nanoTime();
                    stream(out, streamBytes / BATCHES);
                    in.read();
                    megabytesPerSecond[batch] = streamBytes / BATCHES / ((System.nanoTime() - start) / 1e9) / 1e6;
                }
                // The median batch: a pause of the machine's in one batch does not move it.
                System.out.printf("pingpong_us %.3f%n", Stats.median(roundTripMicros));
                System.out.printf("stream_mbps %.1f%n", Stats.median(megabytesPerSecond));
            }
        }
    }

    private static void pingPong(InputStream in, OutputStream out, int roundTrips) throws IOException {
        byte[] message = new byte[PING_SIZE];
        for (int i = 0; i < roundTrips; i++) {
            out.write(message);
            readFully(in, message);
        }
    }

    private static void stream(OutputStream out, long bytes) throws IOException {
        byte[] chunk = new byte[WRITE_SIZE];
        for (long sent = 0; sent < bytes; sent += WRITE_SIZE) {
            out.write(chunk);
        }
    }

    /** Echoes the ping-pong's batches (warm-up and measured), then drains each stream batch and answers one octet. */
    private static void serve(ServerSocket listener, int roundTrips, long streamBytes) {
        try (Socket socket = listener.accept()) {
            socket.setTcpNoDelay(true);
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            byte[] message = new byte[PING_SIZE];
            for (int i = 0; i < (BATCHES + 1) * (roundTrips / BATCHES); i++) {
                readFully(in, message);
                out.write(message);
            }
            byte[] sink = new byte[WRITE_SIZE];
            for (int batch = 0; batch < BATCHES + 1; batch++) {
                for (long read = 0; read < streamBytes / BATCHES; ) {
                    int n = in.read(sink);
                    if (n < 0) {
                        return;
                    }
                    read += n;
                }
                out.write(1);
            }
        } catch (IOException e) {
            System.err.println("workload server: " + e);
        }
    }

    private static void readFully(InputStream in, byte[] buffer) throws IOException {
        for (int read = 0; read < buffer.length; ) {
            int n = in.read(buffer, read, buffer.length - read);
            if (n < 0) {
                throw new IOException("end of stream");
            }
            read += n;
        }
    }
}
