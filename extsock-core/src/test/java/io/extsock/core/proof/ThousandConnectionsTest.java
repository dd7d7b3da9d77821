package io.extsock.core.proof;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WriteRequest;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * 1,000 IWARP_MODE connections open at once through one ExtendedServerSocket in IWARP_MODE,
 * with the default options (the socket's streams on), and no thread per connection.
 *
 * <p>Phase 1 opens them all: 64 client threads connect and switch, 64 server threads complete
 * each accepted socket's deferred switch, register a 4 KiB region for the peer to write and
 * send its descriptor over the stream; a latch waits until all 1,000 are open on both sides,
 * and then the JVM's threads are counted. Phase 2 uses each connection: a 1 KiB stream echo,
 * and one RDMA Write of 4 KiB that the server end checks (SHA-256) after the client's stream
 * message that follows it. Phase 3 closes every socket. The JVM's thread count with 1,000
 * connections open must be that of one connection, give or take a few JDK threads: the
 * engine's progress threads are shared.
 *
 * <p>So that no server thread ever waits for a client that no client thread is serving, a
 * server task is queued only once the client has written what that task reads.
 */
@Timeout(180)
class ThousandConnectionsTest {

    private static final int CONNECTIONS = 1000;
    private static final int THREADS = 64;
    private static final int ECHO = 1024;
    private static final int WRITE = 4096;
    /** Threads the JDK may start on its own meanwhile (a cleaner, a reaper, ...). */
    private static final int SLACK = 4;
    private static final long PHASE_SECONDS = 60;

    /** The server end of one connection. */
    private record ServerEnd(ExtendedSocket socket, IwarpConnection verbs, MemoryRegion target) {
    }

    /** The client end of one connection. */
    private record ClientEnd(int index, ExtendedSocket socket, IwarpConnection verbs, RemoteBuffer target) {
    }

    @Test
    void thousandConcurrentConnectionsWithoutAThreadEach() throws Exception {
        ThreadPoolExecutor clients = pool("client");
        ThreadPoolExecutor servers = pool("server");
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        Map<Integer, ServerEnd> serverEnds = new ConcurrentHashMap<>();  // by the client's port
        ClientEnd[] clientEnds = new ClientEnd[CONNECTIONS];
        try (ExtendedServerSocket server = new ExtendedServerSocket()) {
            server.setOption(IwarpOptions.IWARP_MODE, true);
            server.bind(new InetSocketAddress(Proof.LOOPBACK, 0), CONNECTIONS);
            InetSocketAddress address = new InetSocketAddress(Proof.LOOPBACK, server.getLocalPort());
            Proof.warmUpTerminate();  // the engine's threads exist before the count
            Thread acceptor = new Thread(() -> acceptAll(server, servers, serverEnds, failures), "acceptor");
            Set<String> before = liveThreads();
            acceptor.start();

            // ---- phase 1: all open at once
            long start = System.nanoTime();
            CountDownLatch open = new CountDownLatch(CONNECTIONS);
            for (int i = 0; i < CONNECTIONS; i++) {
                int index = i;
                clients.execute(() -> {
                    try {
                        clientEnds[index] = connect(index, address);
                    } catch (Throwable t) {
                        failures.add("connection " + index + " did not open: " + t);
                    } finally {
                        open.countDown();
                    }
                });
            }
            await(open, "all " + CONNECTIONS + " connections to open", failures);
            assertEquals(List.of(), List.copyOf(failures));
            acceptor.join(TimeUnit.SECONDS.toMillis(PHASE_SECONDS));
            await(() -> serverEnds.size() == CONNECTIONS, "every server end to open", failures);
            long opened = System.nanoTime();
            Set<String> withAll = liveThreads();
            withAll.remove("acceptor");  // this test's, and done by now
            assertThreadsDoNotGrow(before, withAll, "with " + CONNECTIONS + " connections open");

            // ---- phase 2: an echo and an RDMA Write on each, all connections still open
            CountDownLatch used = new CountDownLatch(CONNECTIONS);
            AtomicInteger writesChecked = new AtomicInteger();
            for (ClientEnd client : clientEnds) {
                clients.execute(() -> {
                    try {
                        use(client, serverEnds.get(client.socket().getLocalPort()), servers, failures);
                        writesChecked.incrementAndGet();
                    } catch (Throwable t) {
                        failures.add("connection " + client.index() + ": " + t);
                    } finally {
                        used.countDown();
                    }
                });
            }
            await(used, "every connection's echo and RDMA Write", failures);
            assertEquals(List.of(), List.copyOf(failures));
            assertEquals(CONNECTIONS, writesChecked.get());
            long usedAt = System.nanoTime();
            assertThreadsDoNotGrow(before, liveThreads(), "after using " + CONNECTIONS + " connections");

            // ---- phase 3: close everything; nothing is left to complete
            for (ClientEnd client : clientEnds) {
                assertEquals(0, client.verbs().completions().size(), "client " + client.index());
                client.socket().close();
            }
            for (ServerEnd end : serverEnds.values()) {
                assertEquals(0, end.verbs().completions().size(), "one-sided: nothing completes on the server");
                end.socket().close();
            }
            for (ClientEnd client : clientEnds) {
                assertEquals(null, client.verbs().completions().take(0, TimeUnit.MILLISECONDS),
                        "client " + client.index() + " had nothing outstanding to flush");
                assertTrue(client.socket().isClosed());
            }
            long closed = System.nanoTime();
            System.out.printf("%d connections: opened in %d ms, used in %d ms, closed in %d ms; threads %d before,"
                    + " %d with all open%n", CONNECTIONS, (opened - start) / 1_000_000, (usedAt - opened) / 1_000_000,
                    (closed - usedAt) / 1_000_000, before.size(), withAll.size());
        } finally {
            clients.shutdownNow();
            servers.shutdownNow();
            for (ClientEnd client : clientEnds) {
                if (client != null) {
                    client.socket().close();
                }
            }
            for (ServerEnd end : serverEnds.values()) {
                end.socket().close();
            }
        }
    }

    private static ThreadPoolExecutor pool(String name) {
        AtomicInteger count = new AtomicInteger();
        ThreadPoolExecutor pool = (ThreadPoolExecutor) Executors.newFixedThreadPool(THREADS, task -> {
            Thread thread = new Thread(task, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        pool.prestartAllCoreThreads();  // counted in the baseline
        return pool;
    }

    /** Accepts every connection; a server thread switches it and advertises its region. */
    private static void acceptAll(ExtendedServerSocket server, ExecutorService servers,
                                  Map<Integer, ServerEnd> ends, ConcurrentLinkedQueue<String> failures) {
        for (int i = 0; i < CONNECTIONS; i++) {
            ExtendedSocket accepted;
            try {
                accepted = server.accept();
            } catch (IOException e) {
                failures.add("accept " + i + " failed: " + e);
                return;
            }
            servers.execute(() -> {
                try {
                    IwarpConnection verbs = accepted.iwarp();  // the deferred switch, on this thread
                    MemoryRegion target = verbs.register(ByteBuffer.allocateDirect(WRITE),
                            EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
                    ByteBuffer descriptor = ByteBuffer.allocate(RemoteBuffer.ENCODED_LENGTH);
                    target.remote().writeTo(descriptor);
                    ends.put(accepted.getPort(), new ServerEnd(accepted, verbs, target));
                    OutputStream out = accepted.getOutputStream();
                    out.write(descriptor.array());
                    out.flush();
                } catch (Throwable t) {
                    failures.add("server end of " + accepted + ": " + t);
                }
            });
        }
    }

    private static ClientEnd connect(int index, InetSocketAddress server) throws IOException {
        ExtendedSocket socket = new ExtendedSocket();
        try {
            socket.setOption(IwarpOptions.IWARP_MODE, true);
            socket.connect(server, 30_000);
            socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(PHASE_SECONDS));
            byte[] descriptor = new byte[RemoteBuffer.ENCODED_LENGTH];
            new DataInputStream(socket.getInputStream()).readFully(descriptor);
            return new ClientEnd(index, socket, socket.iwarp(), RemoteBuffer.readFrom(ByteBuffer.wrap(descriptor)));
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** A stream echo, then an RDMA Write that the server end checks. */
    private static void use(ClientEnd client, ServerEnd end, ExecutorService servers,
                            ConcurrentLinkedQueue<String> failures) throws Exception {
        assertTrue(end != null, "no server end for client " + client.index());
        DataInputStream in = new DataInputStream(client.socket().getInputStream());
        OutputStream out = client.socket().getOutputStream();
        byte[] echo = Proof.random(ECHO, client.index());
        out.write(echo);
        out.flush();
        servers.execute(() -> serve(end, failures, ServerStep.ECHO));
        byte[] back = new byte[ECHO];
        in.readFully(back);
        assertArrayEquals(echo, back, "echo of connection " + client.index());

        byte[] data = Proof.random(WRITE, -1 - client.index());
        MemoryRegion source = client.verbs().register(ByteBuffer.allocateDirect(WRITE).put(data), Set.of());
        client.verbs().post(new WriteRequest().tag(client.index()).gather(source.slice(0, WRITE))
                .target(client.target()));
        WorkCompletion written = client.verbs().completions().take(PHASE_SECONDS, TimeUnit.SECONDS);
        assertTrue(written != null, "the RDMA Write of connection " + client.index() + " did not complete");
        assertEquals(client.index(), written.tag());
        assertEquals(CompletionStatus.SUCCESS, written.status(), written.toString());
        assertEquals(WRITE, written.byteLength());
        // After the Write, on the stream: the SHA-256 the server end must find in its region.
        out.write(Proof.sha256().digest(data));
        out.flush();
        servers.execute(() -> serve(end, failures, ServerStep.CHECK_WRITE));
        assertEquals('Y', in.read(), "the server end's check of the RDMA Write of connection " + client.index());
        source.close();
    }

    private enum ServerStep { ECHO, CHECK_WRITE }

    private static void serve(ServerEnd end, ConcurrentLinkedQueue<String> failures, ServerStep step) {
        try {
            DataInputStream in = new DataInputStream(end.socket().getInputStream());
            OutputStream out = end.socket().getOutputStream();
            if (step == ServerStep.ECHO) {
                byte[] echo = new byte[ECHO];
                in.readFully(echo);
                out.write(echo);
            } else {
                byte[] expected = new byte[32];
                in.readFully(expected);
                byte[] found = Proof.sha256().digest(Proof.bytes(end.target().buffer(), 0, WRITE));
                boolean same = Arrays.equals(expected, found);
                if (!same) {
                    failures.add("the server end of " + end.socket() + " found other bytes in its region");
                }
                out.write(same ? 'Y' : 'N');
            }
            out.flush();
        } catch (Throwable t) {
            failures.add("server end of " + end.socket() + ", " + step + ": " + t);
        }
    }

    private static Set<String> liveThreads() {
        Set<String> names = new TreeSet<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            names.add(thread.getName() + "@" + Integer.toHexString(System.identityHashCode(thread)));
        }
        return names;
    }

    private static void assertThreadsDoNotGrow(Set<String> before, Set<String> now, String when) {
        List<String> added = new ArrayList<>(now);
        added.removeAll(before);
        assertTrue(added.size() <= SLACK, when + ", " + added.size() + " threads more than before: " + added);
    }

    private static void await(CountDownLatch latch, String what, ConcurrentLinkedQueue<String> failures)
            throws InterruptedException {
        if (!latch.await(PHASE_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError("waited " + PHASE_SECONDS + " s for " + what + "; " + latch.getCount()
                    + " missing; failures: " + failures + "\n" + Proof.threadDump());
        }
    }

    private static void await(BooleanSupplier condition, String what,
                              ConcurrentLinkedQueue<String> failures) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PHASE_SECONDS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("waited " + PHASE_SECONDS + " s for " + what + "; failures: " + failures
                        + "\n" + Proof.threadDump());
            }
            Thread.sleep(10);  // a polling interval
        }
    }
}
