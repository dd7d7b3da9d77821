package io.extsock.bench;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.testkit.leak.ResourceCount;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * What IWARP_MODE connections that came and went leave behind: resident memory, direct
 * buffers, threads, file descriptors, before and after (no {@code System.gc()} unless asked).
 * A measurement, not a test: the figures depend on the JVM and the machine.
 *
 * <pre>
 * java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*' \
 *     io.extsock.bench.ConnectionChurnMemory [connections=500] [open-at-once=50] [bulk-bytes=0] [--gc]
 * </pre>
 *
 * Both ends of every connection are in this JVM (each is one IWARP_MODE end). Each carries a
 * byte each way, or {@code bulk-bytes} from client to server (which grows the server's window),
 * then both close. {@code --gc} adds a row after {@code System.gc()}.
 */
public final class ConnectionChurnMemory {

    private ConnectionChurnMemory() {
    }

    public static void main(String[] args) throws Exception {
        int connections = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        int atOnce = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        int bulk = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        boolean gc = List.of(args).contains("--gc");
        ExecutorService responder = Executors.newSingleThreadExecutor();
        try (ExtendedServerSocket server = new ExtendedServerSocket(0, 1000, InetAddress.getLoopbackAddress())) {
            churn(server, responder, 2, 2, bulk);  // warm: the engine's threads and classes are part of the baseline
            Thread.sleep(500);
            Snapshot before = Snapshot.take("before");
            for (int done = 0; done < connections; done += atOnce) {
                churn(server, responder, Math.min(atOnce, connections - done), atOnce, bulk);
            }
            Thread.sleep(500);  // a close whose threads were busy gives its memory back a moment later
            Snapshot after = Snapshot.take("after " + connections + " connections (" + atOnce + " open at once"
                    + (bulk > 0 ? ", " + bulk + " bytes each" : "") + ")");
            System.out.println(Snapshot.HEADER);
            System.out.println(before);
            System.out.println(after);
            if (gc) {
                System.gc();
                Thread.sleep(1000);
                System.out.println(Snapshot.take("after System.gc()"));
            }
            System.out.println("extsock pool: " + poolStatistics());
        } finally {
            responder.shutdownNow();
        }
    }

    /** Opens {@code count} connections at once, has each carry its bytes, then closes them all. */
    private static void churn(ExtendedServerSocket server, ExecutorService responder, int count, int atOnce,
                              int bulk) throws Exception {
        List<ExtendedSocket> open = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                ExtendedSocket client = new ExtendedSocket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                ExtendedSocket accepted = server.accept();
                open.add(client);
                open.add(accepted);
                Future<?> switched = responder.submit(() -> {
                    accepted.setOption(IwarpOptions.IWARP_MODE, true);
                    return null;
                });
                client.setOption(IwarpOptions.IWARP_MODE, true);
                switched.get();
            }
            for (int i = 0; i < open.size(); i += 2) {
                carry(open.get(i), open.get(i + 1), bulk, responder);
            }
        } finally {
            for (ExtendedSocket socket : open) {
                socket.close();
            }
        }
    }

    private static void carry(ExtendedSocket client, ExtendedSocket accepted, int bulk, ExecutorService responder)
            throws Exception {
        OutputStream out = client.getOutputStream();
        InputStream in = accepted.getInputStream();
        if (bulk > 0) {
            Future<?> written = responder.submit(() -> {
                out.write(new byte[bulk]);
                return null;
            });
            if (in.readNBytes(bulk).length != bulk) {
                throw new IOException("end of stream too early");
            }
            written.get();
        } else {
            out.write(1);
            if (in.read() != 1) {
                throw new IOException("lost a byte");
            }
        }
        accepted.getOutputStream().write(2);
        if (client.getInputStream().read() != 2) {
            throw new IOException("lost a byte");
        }
    }

    /** The engine's pool, if this extsock has one (read reflectively: the measurement also runs against older builds). */
    private static String poolStatistics() {
        try {
            Class<?> pool = Class.forName("io.extsock.core.memory.DirectBufferPool");
            return pool.getMethod("shared").invoke(null).toString();
        } catch (ReflectiveOperationException | LinkageError e) {
            return "none (" + e.getClass().getSimpleName() + ")";
        }
    }

    private record Snapshot(String label, long rssKib, long directBytes, long directBuffers, int threads,
                            long descriptors) {

        static final String HEADER = String.format("%-60s %10s %14s %9s %8s %6s", "", "RSS MiB", "direct MiB",
                "buffers", "threads", "fds");

        static Snapshot take(String label) throws IOException {
            long direct = 0;
            long count = 0;
            for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
                if (pool.getName().equals("direct")) {
                    direct = pool.getMemoryUsed();
                    count = pool.getCount();
                }
            }
            long descriptors = ResourceCount.openDescriptors();
            return new Snapshot(label, residentKib(), direct, count, ManagementFactory.getThreadMXBean().getThreadCount(),
                    descriptors);
        }

        private static long residentKib() throws IOException {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
            return -1;
        }

        @Override
        public String toString() {
            return String.format("%-60s %10.1f %14.1f %9d %8d %6d", label, rssKib / 1024.0, directBytes / 1048576.0,
                    directBuffers, threads, descriptors);
        }
    }
}
