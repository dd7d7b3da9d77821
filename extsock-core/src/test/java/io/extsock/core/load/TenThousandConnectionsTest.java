package io.extsock.core.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Long run only ({@code -Dextsock.long=true}): 10,000 IWARP_MODE connections open at once, this
 * JVM holding one end of each on the engine's two threads ({@code extsock-iwarp-N}), and no
 * thread per connection; each carries an echo while all are open; then all close and the pool
 * has its memory back.
 *
 * <p>The far ends are in a second JVM ({@link FarEndsProcess}): both ends in one JVM would take
 * 20,000 descriptors, more than the usual limit of 20,000 for a shell here (which a container
 * without CAP_SYS_RESOURCE cannot raise), and 8.5 GiB of direct memory, more than the default
 * limit. One end per JVM takes 10,000 descriptors and 4.3 GiB (448 KiB of direct buffers an
 * end). Neither side waits on a connection (a reader that waits opens the end's selector for
 * inline reads, two descriptors more): the echo is read once {@code available()} shows it, which
 * the engine's threads bring in.
 *
 * <pre>
 * mvn -B -o -pl extsock-core -am test -Dtest=TenThousandConnectionsTest -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dextsock.long=true
 * </pre>
 */
class TenThousandConnectionsTest {

    private static final int CONNECTIONS = Integer.getInteger("extsock.load.connections", 10_000);
    private static final int THREADS = 32;

    @Test
    @Timeout(value = 40, unit = TimeUnit.MINUTES)
    void tenThousandConnectionsOnTwoEngineThreads() throws Exception {
        assumeTrue(Boolean.getBoolean("extsock.long"), "a long run: -Dextsock.long=true");
        long descriptorLimit = openFilesLimit();
        assertTrue(descriptorLimit >= CONNECTIONS + 1000L, "the open files limit is " + descriptorLimit
                + ", short of " + (CONNECTIONS + 1000) + ": raise it (ulimit -n) in the shell before mvn");

        ResourceSample before = ResourceSample.takeAfterGc();
        Process far = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), FarEndsProcess.class.getName(),
                Integer.toString(CONNECTIONS)).redirectErrorStream(true).start();
        BufferedReader farOutput = new BufferedReader(new InputStreamReader(far.getInputStream(),
                StandardCharsets.UTF_8));
        ExecutorService clients = Executors.newFixedThreadPool(THREADS);
        Queue<String> failures = new ConcurrentLinkedQueue<>();
        List<ExtendedSocket> ends = new ArrayList<>();
        try {
            String portLine = farOutput.readLine();
            assertTrue(portLine != null && portLine.startsWith("port "), "the far process said: " + portLine);
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(),
                    Integer.parseInt(portLine.substring(5)));

            long start = System.nanoTime();
            CountDownLatch opened = new CountDownLatch(CONNECTIONS);
            ExtendedSocket[] sockets = new ExtendedSocket[CONNECTIONS];
            for (int i = 0; i < CONNECTIONS; i++) {
                int index = i;
                clients.execute(() -> {
                    try {
                        ExtendedSocket socket = new ExtendedSocket();
                        sockets[index] = socket;
                        socket.setOption(IwarpOptions.IWARP_MODE, true);
                        socket.connect(address, 60_000);
                    } catch (IOException e) {
                        failures.add("client " + index + ": " + e);
                    } finally {
                        opened.countDown();
                    }
                });
            }
            assertTrue(opened.await(30, TimeUnit.MINUTES), "connections still opening: " + opened.getCount());
            ends.addAll(List.of(sockets));
            assertEquals(List.of(), List.copyOf(failures));
            String switched = farOutput.readLine();
            String farResources = farOutput.readLine();
            long openedAt = System.nanoTime();
            ResourceSample allOpen = ResourceSample.take();

            // One echo each, all open: a byte out; the far end echoes it; read once it is there.
            for (int i = 0; i < CONNECTIONS; i++) {
                sockets[i].getOutputStream().write(i);
            }
            AtomicLong echoes = new AtomicLong();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            boolean[] echoed = new boolean[CONNECTIONS];
            while (echoes.get() < CONNECTIONS && System.nanoTime() < deadline) {
                for (int i = 0; i < CONNECTIONS; i++) {
                    if (!echoed[i] && sockets[i].getInputStream().available() > 0) {
                        int got = sockets[i].getInputStream().read();
                        if (got != (i & 0xff)) {
                            failures.add("connection " + i + " echoed " + got);
                        }
                        echoed[i] = true;
                        echoes.incrementAndGet();
                    }
                }
                Thread.sleep(1);  // a polling interval between sweeps
            }
            long echoedAt = System.nanoTime();
            ResourceSample afterEcho = ResourceSample.take();
            System.out.printf("%d connections: all open after %d ms, one echo each in %d ms (%d echoed);"
                    + " failures %d; far process: %s; %s%n", CONNECTIONS, (openedAt - start) / 1_000_000,
                    (echoedAt - openedAt) / 1_000_000, echoes.get(), failures.size(), switched, farResources);
            System.out.println(ResourceSample.HEADER);
            System.out.println(before.row("before"));
            System.out.println(allOpen.row("all open"));
            System.out.println(afterEcho.row("echoed"));
            assertEquals(List.of(), List.copyOf(failures));
            assertEquals(CONNECTIONS, echoes.get());
            assertTrue(switched != null && switched.startsWith("switched " + CONNECTIONS + " failures 0"), switched);
            assertTrue(allOpen.engineThreads() <= 2, "engine threads: " + allOpen.engineThreads());
            assertTrue(afterEcho.engineThreads() <= 2, "engine threads: " + afterEcho.engineThreads());
            assertTrue(farResources != null && farResources.matches("engine threads [12] .*"), farResources);
            assertTrue(allOpen.threads() <= before.threads() + THREADS + 4,
                    "no thread per connection: " + before.threads() + " -> " + allOpen.threads());
        } finally {
            clients.shutdownNow();
            for (ExtendedSocket socket : ends) {
                if (socket != null) {
                    socket.close();
                }
            }
            far.getOutputStream().close();  // the far process's cue to close and exit
            if (!far.waitFor(60, TimeUnit.SECONDS)) {
                far.destroyForcibly();
            }
        }
        for (int i = 0; i < 3000 && ResourceSample.take().poolInUseBytes() != 0; i++) {
            Thread.sleep(10);  // a polling interval
        }
        ResourceSample closed = ResourceSample.takeAfterGc();
        System.out.println(closed.row("closed"));
        assertEquals(0, closed.poolInUseBytes(), "every block back at close");
    }

    /** The soft limit on open files, from /proc/self/limits. */
    private static long openFilesLimit() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
            if (line.startsWith("Max open files")) {
                String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
                return soft.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(soft);
            }
        }
        return Long.MAX_VALUE;
    }
}
