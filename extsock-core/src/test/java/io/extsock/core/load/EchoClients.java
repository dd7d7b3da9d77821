package io.extsock.core.load;

import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * IWARP_MODE client connections kept echoing by a few threads: each thread owns a share of the
 * connections and goes round them, one message out and its echo back (checked) on each in turn,
 * until stopped. Every connection is busy all along, without a thread each.
 */
final class EchoClients implements AutoCloseable {

    private final List<ExtendedSocket> sockets = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong echoes = new AtomicLong();
    final Queue<String> errors = new ConcurrentLinkedQueue<>();

    /** Opens {@code connections} sockets, switched to IWARP_MODE, before any echo starts. */
    static EchoClients open(InetSocketAddress server, int connections) throws IOException {
        EchoClients clients = new EchoClients();
        try {
            for (int i = 0; i < connections; i++) {
                ExtendedSocket socket = new ExtendedSocket();
                clients.sockets.add(socket);
                socket.setOption(IwarpOptions.IWARP_MODE, true);
                socket.connect(server, 30_000);
                socket.setSoTimeout(60_000);
            }
            return clients;
        } catch (IOException | RuntimeException e) {
            clients.close();
            throw e;
        }
    }

    int connections() {
        return sockets.size();
    }

    long echoes() {
        return echoes.get();
    }

    /** Starts {@code threadCount} threads echoing messages of {@code messageBytes}. */
    void start(int threadCount, int messageBytes) {
        for (int t = 0; t < threadCount; t++) {
            List<ExtendedSocket> share = new ArrayList<>();
            for (int i = t; i < sockets.size(); i += threadCount) {
                share.add(sockets.get(i));
            }
            Thread thread = new Thread(() -> echoRounds(share, messageBytes), "echo-client-" + t);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    private void echoRounds(List<ExtendedSocket> share, int messageBytes) {
        byte[] message = new byte[messageBytes];
        byte[] back = new byte[messageBytes];
        long round = 0;
        while (running.get()) {
            for (ExtendedSocket socket : share) {
                try {
                    Arrays.fill(message, (byte) round);
                    OutputStream out = socket.getOutputStream();
                    out.write(message);
                    out.flush();
                    InputStream in = socket.getInputStream();
                    int n = in.readNBytes(back, 0, messageBytes);
                    if (n != messageBytes || !Arrays.equals(message, back)) {
                        errors.add(socket + ": echo " + n + " of " + messageBytes + " octets, or other octets");
                        return;
                    }
                    echoes.incrementAndGet();
                } catch (IOException e) {
                    errors.add(socket + ": " + e);
                    return;
                }
            }
            round++;
        }
    }

    /** Stops the echoing threads after their current round. */
    void stop() throws InterruptedException {
        running.set(false);
        for (Thread thread : threads) {
            thread.join(60_000);
        }
    }

    @Override
    public void close() throws IOException {
        running.set(false);
        for (ExtendedSocket socket : sockets) {
            socket.close();
        }
    }
}
