package io.extsock.bench;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpNegotiationException;
import io.extsock.IwarpOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Does a crowd of connections stalled in the MPA negotiation delay an honest client? Opens an
 * IWARP_MODE server (a thread per accepted socket, which echoes), measures an honest client's
 * connect, switch and first 1 KiB echo alone, then again while {@code stallers} raw TCP
 * connections sit in the negotiation (half send nothing, half the first 8 octets of the MPA
 * Request key), and exits 1 if the median with stallers exceeds the median alone by more than
 * {@code limit-ms}. Then waits for the server to close every staller at its MPA timeout. The
 * stallers' burst is accepted in full (the backlog drained) before the second measurement.
 *
 * <p>{@code negotiation}: {@code first-use} (the default: each accepted socket negotiates on its
 * first use, on the thread the accept loop started for it) or {@code before-accept} (the server
 * socket negotiates every connection as it arrives, IwarpOptions.NEGOTIATE_BEFORE_ACCEPT: the
 * stallers then never reach the accept loop, and hold no thread).
 *
 * <pre>
 * java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*' \
 *     io.extsock.bench.StalledNegotiationBench [stallers=1000] [rounds=20] [limit-ms=100] [mpa-timeout-ms=20000] \
 *     [negotiation=first-use|before-accept]
 * </pre>
 */
public final class StalledNegotiationBench {

    private StalledNegotiationBench() {
    }

    public static void main(String[] args) throws Exception {
        int stallers = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        long limitMillis = args.length > 2 ? Long.parseLong(args[2]) : 100;
        int mpaTimeout = args.length > 3 ? Integer.parseInt(args[3]) : 20_000;
        boolean beforeAccept = args.length > 4 && args[4].equals("before-accept");
        if (args.length > 4 && !beforeAccept && !args[4].equals("first-use")) {
            throw new IllegalArgumentException("negotiation is first-use or before-accept, not " + args[4]);
        }
        AtomicInteger timedOut = new AtomicInteger();
        AtomicInteger accepted = new AtomicInteger();
        List<Socket> stalled = new ArrayList<>();
        try (ExtendedServerSocket server = new ExtendedServerSocket()) {
            server.setOption(IwarpOptions.IWARP_MODE, true);
            server.setOption(IwarpOptions.MPA_TIMEOUT, mpaTimeout);
            server.setOption(IwarpOptions.NEGOTIATE_BEFORE_ACCEPT, beforeAccept);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), stallers + 100);
            Thread acceptor = new Thread(() -> acceptLoop(server, accepted, timedOut), "acceptor");
            acceptor.setDaemon(true);
            acceptor.start();
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
            for (int i = 0; i < rounds; i++) {
                honestEcho(address);  // warm: classes, JIT, the engine's threads
            }
            double[] alone = latencies(address, rounds);

            long start = System.nanoTime();
            byte[] half = Arrays.copyOf("MPA ID Req Frame".getBytes(StandardCharsets.US_ASCII), 8);
            for (int i = 0; i < stallers; i++) {
                Socket staller = new Socket(address.getAddress(), address.getPort());
                stalled.add(staller);
                if (i % 2 == 1) {
                    staller.getOutputStream().write(half);
                }
            }
            double connectedMillis = (System.nanoTime() - start) / 1e6;
            if (beforeAccept) {
                // Negotiations begin in arrival order: once a client behind the stallers is
                // through, every staller is pending on the server socket's thread.
                honestEcho(address);
            } else {
                // The accept loop starts a thread per socket: let it drain the backlog first, so that
                // what is measured is the stallers pending, not a queue of 1,000 thread starts.
                while (accepted.get() < 2 * rounds + stallers) {
                    Thread.sleep(1);
                }
            }
            double acceptedMillis = (System.nanoTime() - start) / 1e6;
            double[] withStallers = latencies(address, rounds);
            // Before accept, the stallers never reach the accept loop: a timeout is seen by the clock.
            int closedMeanwhile = beforeAccept
                    ? (System.nanoTime() - start) / 1_000_000 >= mpaTimeout ? 1 : 0
                    : timedOut.get();

            for (Socket staller : stalled) {
                staller.setSoTimeout(mpaTimeout * 3);
                try {
                    if (staller.getInputStream().read() != -1) {
                        throw new IOException("a staller got a byte");
                    }
                } catch (java.net.SocketException reset) {
                    // a reset is a close too
                }
            }
            double allClosedMillis = (System.nanoTime() - start) / 1e6;

            double medianAlone = median(alone);
            double medianWith = median(withStallers);
            double delay = medianWith - medianAlone;
            System.out.printf("%d stallers connected in %.0f ms, all %s at %.0f ms;"
                    + " MPA timeout %d ms; every staller closed by the server %.0f ms after the first connected"
                    + " (%d closed while the honest clients ran)%n", stallers, connectedMillis, beforeAccept
                    ? "pending on the server socket's negotiating thread (none accepted)"
                    : "accepted (a thread started for each)", acceptedMillis, mpaTimeout, allClosedMillis,
                    closedMeanwhile);
            System.out.printf("honest connect + switch + 1 KiB echo, %d rounds: alone median %.2f ms, max %.2f;"
                    + " with stallers median %.2f ms, max %.2f; delay of the median %.2f ms (limit %d)%n", rounds,
                    medianAlone, max(alone), medianWith, max(withStallers), delay, limitMillis);
            System.out.println("alone, ms:          " + Arrays.toString(alone));
            System.out.println("with stallers, ms: " + Arrays.toString(withStallers));
            if (closedMeanwhile > 0) {
                System.out.println("FAIL: stallers timed out while measuring; raise mpa-timeout-ms");
                System.exit(2);
            }
            if (delay > limitMillis) {
                System.out.println("FAIL: stallers delayed the honest client by more than " + limitMillis + " ms");
                System.exit(1);
            }
            System.out.println("OK");
        } finally {
            for (Socket staller : stalled) {
                staller.close();
            }
        }
    }

    private static void acceptLoop(ExtendedServerSocket server, AtomicInteger accepted, AtomicInteger timedOut) {
        while (!server.isClosed()) {
            try {
                ExtendedSocket socket = server.accept();
                accepted.incrementAndGet();
                Thread handler = new Thread(() -> echo(socket, timedOut));
                handler.setDaemon(true);
                handler.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void echo(ExtendedSocket socket, AtomicInteger timedOut) {
        try (socket) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
            }
        } catch (IwarpNegotiationException e) {
            timedOut.incrementAndGet();
        } catch (IOException e) {
            // the bench's own close
        }
    }

    private static double[] latencies(InetSocketAddress address, int rounds) throws IOException {
        double[] millis = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            millis[i] = honestEcho(address) / 1e6;
        }
        return millis;
    }

    private static long honestEcho(InetSocketAddress address) throws IOException {
        long start = System.nanoTime();
        try (ExtendedSocket socket = new ExtendedSocket()) {
            socket.setOption(IwarpOptions.IWARP_MODE, true);
            socket.connect(address, 10_000);
            socket.setSoTimeout(30_000);
            byte[] message = new byte[1024];
            socket.getOutputStream().write(message);
            if (socket.getInputStream().readNBytes(message.length).length != message.length) {
                throw new IOException("the echo ended early");
            }
            return System.nanoTime() - start;
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double max(double[] values) {
        return Arrays.stream(values).max().orElse(0);
    }
}
