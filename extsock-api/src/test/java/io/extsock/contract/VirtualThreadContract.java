package io.extsock.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Sockets on virtual threads (JDK 21+; the sources stay at --release 17 and reach the API
 * through {@link VirtualThreads}): interrupts behave as the JDK documents for its own sockets on
 * virtual threads (compared with a plain Socket on a virtual thread), and 10,000 virtual threads
 * each blocked in read() on its own connection are all served. JFR records every
 * jdk.VirtualThreadPinned event (threshold 0) meanwhile: there must be none.
 *
 * <p>On JDK 17 there are no virtual threads, and these tests do not run there
 * ({@code @EnabledForJreRange(min = JAVA_21)} on each test: JUnit does not inherit it from a
 * superclass); CI runs them on JDK 25.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
public abstract class VirtualThreadContract {

    /** The kinds under test. */
    protected abstract List<SocketKind> kinds();

    /**
     * Connections in the many-connections test: 10,000 ({@code -Dextsock.vt.connections} sets
     * another number). A kind whose connections are costly may run fewer by default and the
     * 10,000 only in long runs ({@code -Dextsock.long=true}); it says why.
     */
    protected int connections() {
        return Integer.getInteger("extsock.vt.connections", 10_000);
    }

    /** How {@link VirtualThreadPeer} serves this kind: {@code passthrough} or {@code iwarp}. */
    protected abstract String peerMode(SocketKind kind);

    // ---- interrupts -----------------------------------------------------------------------

    /**
     * Uses a connection of the kind from a virtual thread once, so that the classes this takes
     * are loaded and initialized before JFR watches: a virtual thread that has to wait for a
     * class being initialized by another thread pins its carrier (the JDK's own, once per class).
     */
    private static void warmUp(SocketKind kind) throws Exception {
        CompletableFuture<Object> done = new CompletableFuture<>();
        VirtualThreads.start(() -> {
            try (SocketPair pair = SocketPair.open(kind)) {  // connects (and switches) on this virtual thread
                Thread reading = Thread.currentThread();
                CompletableFuture.runAsync(() -> {
                    try {
                        ThreadStacks.awaitInside(reading, "", "read", false);  // the read below blocks first
                        pair.accepted.getOutputStream().write(1);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                pair.client.setSoTimeout(10_000);
                int timed = pair.client.getInputStream().read();
                pair.client.setSoTimeout(0);
                pair.accepted.getOutputStream().write(2);
                int untimed = pair.client.getInputStream().read();
                pair.client.getOutputStream().write(3);
                done.complete(timed + "," + untimed + "," + pair.accepted.getInputStream().read());
            } catch (Exception e) {
                done.complete(e);
            }
        });
        assertEquals("1,2,3", done.get(30, TimeUnit.SECONDS));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    @EnabledForJreRange(min = JRE.JAVA_21)
    void anInterruptEndsAVirtualThreadsBlockedRead(SocketKind kind) throws Exception {
        warmUp(SocketContract.PLAIN);
        warmUp(kind);
        try (VirtualThreads.PinnedRecording pinned = new VirtualThreads.PinnedRecording()) {
            SocketContract.assertSameAsPlain(kind, (k, t) -> {
                try (SocketPair pair = SocketPair.open(k)) {
                    InputStream in = pair.client.getInputStream();
                    CompletableFuture<Object> outcome = new CompletableFuture<>();
                    AtomicBoolean stillInterrupted = new AtomicBoolean();
                    Thread reader = VirtualThreads.start(() -> {
                        try {
                            outcome.complete(in.read());
                        } catch (IOException e) {
                            outcome.complete(e);
                        } finally {
                            stillInterrupted.set(Thread.currentThread().isInterrupted());
                        }
                    });
                    VirtualThreads.awaitBlocked(reader);
                    reader.interrupt();
                    Object result = outcome.get(10, TimeUnit.SECONDS);
                    reader.join();
                    t.note("the blocked read", result instanceof Exception
                            ? Transcript.describe((Exception) result) : result);
                    t.note("the reader's interrupt status", stillInterrupted.get());
                    t.record("closed", pair.client::isClosed);
                    t.record("read again", in::read);
                    t.record("the peer reads", () -> pair.accepted.getInputStream().read());
                }
                // An interrupt already pending when a virtual thread reads: with bytes there, and
                // without (then the read would block).
                try (SocketPair pair = SocketPair.open(k)) {
                    InputStream in = pair.client.getInputStream();
                    pair.accepted.getOutputStream().write(7);
                    awaitAvailable(in);
                    t.note("pending interrupt, a byte waiting", onInterruptedVirtualThread(in::read));
                    t.record("closed", pair.client::isClosed);
                    t.note("pending interrupt, nothing waiting", onInterruptedVirtualThread(in::read));
                    t.record("closed after", pair.client::isClosed);
                }
                // A write on an interrupted virtual thread, and a plain platform thread after it.
                try (SocketPair pair = SocketPair.open(k)) {
                    OutputStream out = pair.client.getOutputStream();
                    t.note("pending interrupt, a write", onInterruptedVirtualThread(() -> {
                        out.write(5);
                        return "ok";
                    }));
                    t.record("closed", pair.client::isClosed);
                }
            });
            assertEquals(List.of(), pinned.stopAndReadPinned(), "virtual threads pinned their carriers");
        }
    }

    private static String onInterruptedVirtualThread(Transcript.Step step) throws Exception {
        CompletableFuture<String> result = new CompletableFuture<>();
        VirtualThreads.start(() -> {
            Thread.currentThread().interrupt();
            String outcome;
            try {
                outcome = String.valueOf(step.run());
            } catch (Exception e) {
                outcome = "! " + Transcript.describe(e);
            }
            result.complete(outcome + " (interrupt status " + Thread.currentThread().isInterrupted() + ")");
        });
        return result.get(10, TimeUnit.SECONDS);
    }

    private static void awaitAvailable(InputStream in) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (in.available() == 0) {
            assertTrue(System.nanoTime() < deadline, "the peer's byte never arrived");
            Thread.sleep(1);  // a polling interval
        }
    }

    // ---- many connections -----------------------------------------------------------------

    /**
     * {@link #connections()} virtual threads (10,000), each blocked in read() on its own connection (the
     * far ends in a {@link VirtualThreadPeer} process), then all served: each reads its own line.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    @EnabledForJreRange(min = JRE.JAVA_21)
    void tenThousandVirtualThreadsBlockedInReadAreAllServed(SocketKind kind) throws Exception {
        int count = connections();
        long limit = openFileLimit();
        assertTrue(limit < 0 || limit >= count + 1_000, "this JVM may open " + limit + " files; "
                + count + " connections need " + (count + 1_000) + ": raise the hard limit (ulimit -Hn)");
        warmUp(SocketContract.PLAIN);  // a timed read that parks: the JDK's poller is initialized before JFR watches
        warmUp(kind);
        Process peer = startPeer(peerMode(kind), count);
        BufferedReader peerOut = new BufferedReader(new InputStreamReader(peer.getInputStream(), StandardCharsets.UTF_8));
        OutputStream peerIn = peer.getOutputStream();
        Queue<Socket> sockets = new ConcurrentLinkedQueue<>();
        ExecutorService clients = VirtualThreads.perTaskExecutor();
        try (VirtualThreads.PinnedRecording pinned = new VirtualThreads.PinnedRecording()) {
            String listening = expectLine(peerOut, "LISTENING ");
            InetSocketAddress address = new InetSocketAddress(SocketContract.LOOPBACK,
                    Integer.parseInt(listening.substring("LISTENING ".length())));
            long started = System.nanoTime();
            Semaphore connecting = new Semaphore(64);  // a connect storm would overflow the listen queue
            CountDownLatch reading = new CountDownLatch(count);
            List<Future<String>> results = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                results.add(clients.submit(() -> {
                    Socket socket = kind.newSocket();
                    sockets.add(socket);
                    connecting.acquire();
                    try {
                        socket.connect(address, 60_000);
                        kind.prepareConnected(socket, false);
                    } finally {
                        connecting.release();
                    }
                    InputStream in = socket.getInputStream();
                    reading.countDown();
                    StringBuilder line = new StringBuilder();
                    for (int b; (b = in.read()) != '\n'; ) {  // blocks until the peer serves
                        if (b < 0) {
                            return "end of stream after \"" + line + "\"";
                        }
                        line.append((char) b);
                    }
                    // Not "port " + ...: the first use of a string concatenation links its call
                    // site, and ten thousand threads doing that at once contend for a monitor in
                    // the JDK's StringConcatFactory, which pinned a carrier (JDK 25, in CI).
                    String expected = new StringBuilder("port ").append(socket.getLocalPort()).toString();
                    return line.toString().equals(expected) ? "ok" : "read \"" + line + "\", expected \"" + expected + "\"";
                }));
            }
            assertTrue(reading.await(240, TimeUnit.SECONDS), "not every connection got to its read");
            String accepted = expectLine(peerOut, "ACCEPTED ");
            long connected = System.nanoTime();
            System.out.println(kind.name() + ": " + count + " connections, far end " + accepted
                    + "; this end " + VirtualThreads.memory() + "; connected and reading after "
                    + TimeUnit.NANOSECONDS.toMillis(connected - started) + " ms");
            for (Future<String> result : results) {
                assertFalse(result.isDone(), "a read returned before the peer served it: " + (result.isDone()
                        ? result.get() : ""));
            }
            peerIn.write("SERVE\n".getBytes(StandardCharsets.US_ASCII));
            peerIn.flush();
            int ok = 0;
            List<String> wrong = new ArrayList<>();
            for (Future<String> result : results) {
                String outcome = result.get(120, TimeUnit.SECONDS);
                if (outcome.equals("ok")) {
                    ok++;
                } else if (wrong.size() < 10) {
                    wrong.add(outcome);
                }
            }
            assertEquals(count, ok, "connections served right; the first wrong ones: " + wrong);
            System.out.println(kind.name() + ": all served in "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - connected) + " ms");
            expectLine(peerOut, "SERVED");
            assertEquals(List.of(), pinned.stopAndReadPinned(), "virtual threads pinned their carriers");
        } finally {
            clients.shutdownNow();
            for (Socket socket : sockets) {
                SocketPair.closeQuietly(socket);
            }
            try {
                peerIn.close();
            } catch (IOException ignored) {
                // the peer may have gone already
            }
            if (!peer.waitFor(60, TimeUnit.SECONDS)) {
                peer.destroyForcibly();
            }
        }
    }

    /**
     * The peer process: this JVM's java and class path, under a shell that raises its soft
     * limit of open files to the hard limit (the JVM does so itself on Linux; this makes sure).
     */
    private static Process startPeer(String mode, int count) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of("bash", "-c", "ulimit -n \"$(ulimit -Hn)\" && exec \"$0\" \"$@\"",
                java, "-cp", System.getProperty("java.class.path"), VirtualThreadPeer.class.getName(),
                mode, String.valueOf(count));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static String expectLine(BufferedReader peerOut, String prefix) throws IOException {
        String line = peerOut.readLine();
        if (line == null || !line.startsWith(prefix)) {
            throw new AssertionError("the peer process said " + (line == null ? "nothing (it ended)" : line)
                    + ", expected " + prefix.trim());
        }
        return line;
    }

    /** This process's soft limit of open files (Linux), or -1 where it cannot be read. */
    private static long openFileLimit() throws IOException {
        Path limits = Path.of("/proc/self/limits");
        if (!Files.isReadable(limits)) {
            return -1;
        }
        for (String line : Files.readAllLines(limits)) {
            if (line.startsWith("Max open files")) {
                String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
                return soft.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(soft);
            }
        }
        return -1;
    }
}
