package io.extsock.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What NativeWaitFloor relies on: the native connection carries bytes intact each way of
 * waiting, and the three waits end on input or on another thread's wake-up, which a blocking
 * end refuses to offer.
 */
@EnabledOnOs(value = OS.LINUX, disabledReason = "NativeLink makes Linux system calls")
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)  // a native wait ignores interrupts
class NativeLinkTest {

    /** More than loopback's socket buffers hold, so that writes fill them and reads come in pieces. */
    private static final int LARGE = 8 << 20;

    @ParameterizedTest
    @EnumSource(NativeLink.Wait.class)
    void carriesEveryByteIntactEachWay(NativeLink.Wait wait) throws Exception {
        byte[] sent = new byte[LARGE];
        new Random(wait.ordinal()).nextBytes(sent);
        try (NativeLink link = NativeLink.open(wait)) {
            assertEquals(wait, link.client.waitWay());
            Pointer from = direct(LARGE);
            from.put(0, sent, 0, LARGE);
            CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
                try {
                    link.client.writeFully(from, LARGE);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Pointer into = direct(LARGE);
            link.server.readFully(into, LARGE);
            writing.get(30, TimeUnit.SECONDS);
            byte[] received = new byte[LARGE];
            into.get(0, received, 0, LARGE);
            assertArrayEquals(sent, received);

            Pointer answer = direct(3);
            answer.put(0, new byte[] {7, 8, 9}, 0, 3);
            link.server.writeFully(answer, 3);
            Pointer back = direct(3);
            link.client.readFully(back, 3);
            byte[] got = new byte[3];
            back.get(0, got, 0, 3);
            assertArrayEquals(new byte[] {7, 8, 9}, got);
        }
    }

    @ParameterizedTest
    @EnumSource(value = NativeLink.Wait.class, names = {"EPOLL_THEN_READ", "POLL_THEN_READ"})
    void anotherThreadEndsAWaitThatNoInputEnds(NativeLink.Wait wait) throws Exception {
        try (NativeLink link = NativeLink.open(wait)) {
            CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return link.server.awaitInput();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(50);  // most likely inside the wait by now; if not, the wake-up waits for it
            assertFalse(waiting.isDone(), "the wait ended with nothing to end it");
            link.server.wakeUp();
            assertFalse(waiting.get(10, TimeUnit.SECONDS), "woken, with no input");
        }
    }

    @ParameterizedTest
    @EnumSource(value = NativeLink.Wait.class, names = {"EPOLL_THEN_READ", "POLL_THEN_READ"})
    void aWakeUpIsConsumedAndInputStillEndsTheNextWait(NativeLink.Wait wait) throws Exception {
        try (NativeLink link = NativeLink.open(wait)) {
            link.server.wakeUp();  // before any wait: the next one ends at once, taking both
            link.server.wakeUp();
            assertFalse(link.server.awaitInput());
            assertEquals(0, link.server.takeWakeUps(), "the wait took the wake-ups");
            Pointer one = direct(1);
            one.putByte(0, (byte) 42);
            link.client.writeFully(one, 1);
            assertTrue(link.server.awaitInput(), "input, and the consumed wake-up not seen again");
            Pointer read = direct(1);
            link.server.readFully(read, 1);
            assertEquals(42, read.getByte(0));
        }
    }

    @ParameterizedTest
    @EnumSource(NativeLink.Wait.class)
    void shuttingAnEndDownEndsAWaitOnIt(NativeLink.Wait wait) throws Exception {
        try (NativeLink link = NativeLink.open(wait)) {
            CompletableFuture<Void> reading = CompletableFuture.runAsync(() -> {
                try {
                    link.server.readFully(direct(8), 8);
                } catch (Exception expected) {
                    throw new IllegalStateException(expected);
                }
            });
            Thread.sleep(50);  // most likely blocked by now; if not, it finds the end shut down
            assertFalse(reading.isDone(), "the read ended with nothing to end it");
            link.server.shutdown();  // what close does first: a close alone would not wake it
            ExecutionException ended = assertThrows(ExecutionException.class, () -> reading.get(10, TimeUnit.SECONDS));
            assertTrue(ended.getCause().getCause() instanceof EOFException, String.valueOf(ended.getCause()));
        }
    }

    @Test
    void anotherThreadEndsAnIoUringReceiveThatNoInputEnds() throws Exception {
        // One thread receives throughout: io_uring cancels what a thread queued when it ends.
        ExecutorService receiver = Executors.newSingleThreadExecutor();
        try (NativeLink link = NativeLink.open(NativeLink.Wait.IO_URING)) {
            Pointer buffer = direct(8);
            Callable<Integer> receive = () -> link.server.receive(buffer, 8);
            Future<Integer> receiving = receiver.submit(receive);
            Thread.sleep(50);  // most likely inside io_uring_enter by now; if not, the wake-up waits for it
            assertFalse(receiving.isDone(), "the receive ended with nothing to end it");
            link.server.wakeUp();
            assertEquals(0, receiving.get(10, TimeUnit.SECONDS), "woken, with nothing received");
            assertTrue(link.server.wokenUp());

            IllegalStateException elsewhere = assertThrows(IllegalStateException.class,
                    () -> link.server.receive(direct(8), 8));
            assertTrue(elsewhere.getMessage().contains("in flight"), elsewhere.getMessage());

            Pointer one = direct(1);
            one.putByte(0, (byte) 42);
            link.client.writeFully(one, 1);
            assertEquals(1, receiver.submit(receive).get(10, TimeUnit.SECONDS),
                    "the receive still in flight took the input");
            assertEquals(42, buffer.getByte(0));
            assertFalse(link.server.wokenUp(), "the wake-up was taken once, not seen again");
        } finally {
            receiver.shutdownNow();
        }
    }

    @Test
    void aReceiveCancelledWithTheThreadThatQueuedItIsQueuedAgain() throws Exception {
        try (NativeLink link = NativeLink.open(NativeLink.Wait.IO_URING)) {
            Pointer buffer = direct(8);
            Thread queuer = new Thread(() -> {
                try {
                    link.server.wakeUp();  // so that its receive returns at once, still in flight
                    link.server.receive(buffer, 8);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            queuer.start();
            queuer.join(10_000);
            assertFalse(queuer.isAlive());
            Pointer one = direct(1);
            one.putByte(0, (byte) 42);
            link.client.writeFully(one, 1);
            int received = 0;
            for (int calls = 0; received == 0 && calls < 10; calls++) {
                received = link.server.receive(buffer, 8);  // the cancelled one reaped, then queued again
            }
            assertEquals(1, received, "the octet, neither lost nor read twice");
            assertEquals(42, buffer.getByte(0));
        }
    }

    @Test
    void closingAnIoUringEndWhileItsReceiveWaitsEndsTheReceive() throws Exception {
        NativeLink link = NativeLink.open(NativeLink.Wait.IO_URING);
        try {
            CompletableFuture<Integer> receiving = CompletableFuture.supplyAsync(() -> {
                try {
                    return link.server.receive(direct(8), 8);
                } catch (Exception expected) {
                    throw new IllegalStateException(expected);
                }
            });
            Thread.sleep(50);  // most likely inside io_uring_enter by now; if not, it finds the end closed
            assertFalse(receiving.isDone(), "the receive ended with nothing to end it");
            link.server.close();  // unmaps the rings only once the receive has left them
            ExecutionException ended = assertThrows(ExecutionException.class, () -> receiving.get(10, TimeUnit.SECONDS));
            assertTrue(ended.getCause().getCause() instanceof IOException, String.valueOf(ended.getCause()));
            IOException after = assertThrows(IOException.class, () -> link.server.receive(direct(8), 8));
            assertTrue(after.getMessage().contains("closed"), after.getMessage());
        } finally {
            link.close();
        }
    }

    @Test
    void anIoUringEndWaitsOnlyInsideItsReceive() throws Exception {
        try (NativeLink link = NativeLink.open(NativeLink.Wait.IO_URING)) {
            assertThrows(IllegalStateException.class, link.server::awaitInput);
            assertThrows(IllegalStateException.class, link.server::takeWakeUps);
        }
        try (NativeLink link = NativeLink.open(NativeLink.Wait.EPOLL_THEN_READ)) {
            assertThrows(IllegalStateException.class, () -> link.server.receive(direct(8), 8));
        }
    }

    @Test
    void aBlockingEndOffersNoWakeUp() throws Exception {
        try (NativeLink link = NativeLink.open(NativeLink.Wait.BLOCKING_READ)) {
            IllegalStateException refused = assertThrows(IllegalStateException.class, link.server::wakeUp);
            assertTrue(refused.getMessage().contains("inside read"), refused.getMessage());
            assertThrows(IllegalStateException.class, link.server::awaitInput);
        }
    }

    @ParameterizedTest
    @EnumSource(NativeLink.Wait.class)
    void aClosedPeerEndsAReadWithEndOfStream(NativeLink.Wait wait) throws Exception {
        NativeLink link = NativeLink.open(wait);
        try {
            link.client.close();
            EOFException ended = assertThrows(EOFException.class, () -> link.server.readFully(direct(8), 8));
            assertTrue(ended.getMessage().contains("closed"), ended.getMessage());
        } finally {
            link.server.close();
        }
    }

    private static Pointer direct(int size) {
        return Memory.allocateDirect(Runtime.getSystemRuntime(), size);
    }
}
