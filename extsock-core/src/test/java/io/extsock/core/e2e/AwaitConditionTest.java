package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WriteRequest;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link IwarpConnection#await}: the wait for what the peer places by RDMA Write, which no
 * completion reports on the target side.
 */
@Timeout(60)
class AwaitConditionTest {

    private static final Set<Access> REMOTE_WRITE = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE);

    @Test
    void returnsOnceThePeersWriteHasLanded() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection server = pair.serverVerbs();
            IwarpConnection client = pair.clientVerbs();
            byte[] data = new byte[300_000];
            new SplittableRandom(5).nextBytes(data);
            data[data.length - 1] = 42;
            MemoryRegion target = server.register(ByteBuffer.allocateDirect(data.length), REMOTE_WRITE);
            MemoryRegion source = client.register(ByteBuffer.allocateDirect(data.length).put(data).flip(), Set.of());
            ByteBuffer landing = target.buffer();

            CountDownLatch checked = new CountDownLatch(1);
            CompletableFuture<Boolean> waited = CompletableFuture.supplyAsync(() -> {
                try {
                    return server.await(() -> {
                        boolean landed = landing.get(data.length - 1) == 42;
                        checked.countDown();
                        return landed;
                    }, 20, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            // The waiter is inside its wait, and found nothing there yet: the Write must wake it.
            assertTrue(checked.await(20, TimeUnit.SECONDS), "the waiter checked its condition");
            assertFalse(waited.isDone(), "nothing was written yet");
            WorkCompletion written = client.submit(new WriteRequest().gather(source.slice(0, data.length))
                    .target(target.remote(0, data.length))).get(20, TimeUnit.SECONDS);
            assertEquals(CompletionStatus.SUCCESS, written.status(), written.detail());

            assertTrue(waited.get(20, TimeUnit.SECONDS));
            byte[] landed = new byte[data.length];
            landing.get(0, landed);
            assertArrayEquals(data, landed, "a single Write is placed in order: the last byte came last");
        }
    }

    @Test
    void aConditionThatAlreadyHoldsReturnsAtOnce() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            assertTrue(pair.serverVerbs().await(() -> true, 1, TimeUnit.HOURS));
        }
    }

    @Test
    void theTimeoutEndsTheWaitAndTheConnectionCarriesOn() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection server = pair.serverVerbs();
            long start = System.nanoTime();
            assertFalse(server.await(() -> false, 200, TimeUnit.MILLISECONDS));
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(200), "waited the whole timeout");

            MemoryRegion target = server.register(ByteBuffer.allocateDirect(8), REMOTE_WRITE);
            MemoryRegion source = pair.clientVerbs().register(ByteBuffer.allocateDirect(8).put(7, (byte) 9), Set.of());
            pair.clientVerbs().post(new WriteRequest().gather(source.slice(0, 8)).target(target.remote(0, 8)));
            assertTrue(server.await(() -> target.buffer().get(7) == 9, 20, TimeUnit.SECONDS));
        }
    }

    @Test
    void theConnectionsEndEndsTheWaitWithAnException() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection server = pair.serverVerbs();
            CountDownLatch checked = new CountDownLatch(1);
            CompletableFuture<Boolean> waited = CompletableFuture.supplyAsync(() -> {
                try {
                    return server.await(() -> {
                        checked.countDown();
                        return false;
                    }, 30, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertTrue(checked.await(20, TimeUnit.SECONDS), "the waiter is inside its wait");
            pair.client().close();

            ExecutionException failed = assertThrows(ExecutionException.class, () -> waited.get(20, TimeUnit.SECONDS));
            SocketException ended = assertInstanceOf(SocketException.class, failed.getCause().getCause());
            assertTrue(ended.getMessage().contains("closed"), ended.getMessage());
        }
    }

    @Test
    void anInterruptEndsTheWait() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection server = pair.serverVerbs();
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            CountDownLatch checked = new CountDownLatch(1);
            Thread waiter = new Thread(() -> {
                try {
                    server.await(() -> {
                        checked.countDown();
                        return false;
                    }, 30, TimeUnit.SECONDS);
                    outcome.set(new AssertionError("the wait returned"));
                } catch (Throwable e) {
                    outcome.set(e);
                }
            });
            waiter.start();
            assertTrue(checked.await(20, TimeUnit.SECONDS), "the waiter is inside its wait");
            waiter.interrupt();
            waiter.join(20_000);
            assertFalse(waiter.isAlive(), "the interrupt ended the wait");
            assertInstanceOf(InterruptedException.class, outcome.get());
        }
    }
}
