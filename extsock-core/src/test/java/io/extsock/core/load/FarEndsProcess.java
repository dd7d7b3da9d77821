package io.extsock.core.load;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.testkit.leak.ResourceCount;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The far ends of {@link TenThousandConnectionsTest}, in a JVM of their own so that each process
 * holds one end of every connection (a descriptor each, within the usual limit of the shell).
 * Prints its port, accepts {@code connections} IWARP_MODE connections, switches each on a small
 * pool, prints how many engine threads it has, then echoes what arrives on any of them: a few
 * threads go round all ends and echo what {@code available()} says is there, so no application
 * thread waits on a connection (a waiting reader would open that end's selector for inline
 * reads: two descriptors more). Exits when its standard input closes.
 */
public final class FarEndsProcess {

    private FarEndsProcess() {
    }

    public static void main(String[] args) throws Exception {
        int connections = Integer.parseInt(args[0]);
        ExecutorService switching = Executors.newFixedThreadPool(32);
        ConcurrentLinkedQueue<ExtendedSocket> ends = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        try (ExtendedServerSocket server = new ExtendedServerSocket()) {
            server.setOption(IwarpOptions.IWARP_MODE, true);
            server.setOption(IwarpOptions.MPA_TIMEOUT, 60_000);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4096);
            System.out.println("port " + server.getLocalPort());
            for (int i = 0; i < connections; i++) {
                ExtendedSocket accepted = server.accept();
                switching.execute(() -> {
                    try {
                        accepted.iwarp();  // the deferred switch, as responder
                        ends.add(accepted);
                    } catch (Exception e) {
                        failures.add(e.toString());
                    }
                });
            }
            switching.shutdown();
            switching.awaitTermination(20, TimeUnit.MINUTES);
            System.out.println("switched " + ends.size() + " failures " + failures.size() + " " + failures.peek());
            System.out.println("engine threads " + ResourceSample.take().engineThreads() + " descriptors "
                    + ResourceCount.openDescriptors() + " threads " + Thread.activeCount());
            List<ExtendedSocket> all = new ArrayList<>(ends);
            int echoers = 4;
            for (int t = 0; t < echoers; t++) {
                int first = t;
                Thread echoer = new Thread(() -> echoRounds(all, first, echoers), "far-echo-" + t);
                echoer.setDaemon(true);
                echoer.start();
            }
            while (System.in.read() >= 0) {
                // until the test closes our standard input
            }
            for (ExtendedSocket end : all) {
                end.close();
            }
        }
    }

    private static void echoRounds(List<ExtendedSocket> all, int first, int step) {
        byte[] buffer = new byte[4096];
        while (true) {
            boolean any = false;
            for (int i = first; i < all.size(); i += step) {
                ExtendedSocket end = all.get(i);
                try {
                    InputStream in = end.getInputStream();
                    int available = in.available();
                    if (available > 0) {
                        int n = in.read(buffer, 0, Math.min(available, buffer.length));
                        end.getOutputStream().write(buffer, 0, n);
                        any = true;
                    }
                } catch (Exception e) {
                    // the test closed its end: nothing more to echo there
                }
            }
            if (!any) {
                try {
                    Thread.sleep(1);  // an idle echo loop rests between sweeps
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }
}
