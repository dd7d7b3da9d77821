package io.extsock.core.engine;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What the engine's progress thread does about one connection, seen from a test: whether it
 * watches the socket for reading, and a barrier after which it has served every readiness of
 * that socket that existed before. A test then proves that the engine could have read, and did
 * not, without a fixed sleep (which passes on a slow machine without having checked a thing).
 */
public final class EngineProbe {

    private static final long PATIENCE_SECONDS = 20;

    private final ProgressThread thread;
    private final SelectionKey key;

    private EngineProbe(ProgressThread thread, SelectionKey key) {
        this.thread = thread;
        this.key = key;
    }

    /** The probe of the IWARP_MODE connection {@code socket} is an end of (in this JVM). */
    public static EngineProbe of(Socket socket) throws Exception {
        int local = socket.getLocalPort();
        int remote = socket.getPort();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
        while (true) {
            for (ProgressThread thread : ProgressEngine.instance().threads()) {
                SelectionKey key = onThread(thread, () -> keyOf(thread, local, remote));
                if (key != null) {
                    return new EngineProbe(thread, key);
                }
            }
            // A connection's key is registered by a task of its progress thread, soon after it starts.
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no progress thread watches the connection " + local + " -> " + remote);
            }
            Thread.sleep(1);  // a polling interval
        }
    }

    /** Progress thread: the key of the connection between the two ports, or null (keys are this thread's to walk). */
    private static SelectionKey keyOf(ProgressThread thread, int local, int remote) throws IOException {
        for (SelectionKey key : thread.selector().keys()) {
            if (key.attachment() instanceof ChannelDriver && key.channel() instanceof SocketChannel channel
                    && channel.isOpen()
                    && ((InetSocketAddress) channel.getLocalAddress()).getPort() == local
                    && ((InetSocketAddress) channel.getRemoteAddress()).getPort() == remote) {
                return key;
            }
        }
        return null;
    }

    /** Whether the engine watches the socket for reading now (its read interest is on). */
    public boolean engineReads() {
        return (key.interestOps() & SelectionKey.OP_READ) != 0;
    }

    /** Waits until the engine stops watching the socket for reading, or fails. */
    public void awaitEngineStoppedReading() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
        while (engineReads()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the engine still watches the socket for reading after "
                        + PATIENCE_SECONDS + " s");
            }
            Thread.sleep(1);  // a polling interval: the progress thread turns the interest off
        }
    }

    /**
     * Returns once the progress thread has selected after this call began and served what that
     * select found: octets that had arrived by the call would have been read by now, had the
     * engine watched for them. Its loop selects, runs its tasks, then serves the ready keys, and
     * says it sleeps ({@link ProgressThread#sleepingUntil}) only before its next select. A task
     * shows that an iteration ran; the loop seen sleeping after it, that the iteration's keys
     * were served. Twice, since the first task may join an iteration whose select came earlier.
     */
    public void awaitLoopPassed() throws Exception {
        for (int i = 0; i < 2; i++) {
            CountDownLatch ran = new CountDownLatch(1);
            thread.execute(ran::countDown);
            if (!ran.await(PATIENCE_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("the progress thread ran no task in " + PATIENCE_SECONDS + " s");
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
            while (thread.sleepingUntil() == Long.MIN_VALUE) {  // awake: in this iteration still
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the progress thread never went back to its select in "
                            + PATIENCE_SECONDS + " s");
                }
                Thread.onSpinWait();  // a short window: the loop may select again at once
            }
        }
    }

    private interface Work<T> {
        T run() throws Exception;
    }

    private static <T> T onThread(ProgressThread thread, Work<T> work) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        thread.execute(() -> {
            try {
                result.complete(work.run());
            } catch (Exception e) {
                result.completeExceptionally(e);
            }
        });
        try {
            return result.get(PATIENCE_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } catch (TimeoutException e) {
            throw new AssertionError("the progress thread ran no task in " + PATIENCE_SECONDS + " s", e);
        }
    }
}
