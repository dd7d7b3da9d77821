package io.extsock.rdma.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The device event thread's lifecycle, driven by fake event channels. */
@Timeout(60)
class DeviceEventThreadTest {

    private DeviceEventThread events;
    private final List<FakeEventChannel> channels = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        events = new DeviceEventThread("fake0");
    }

    @AfterEach
    void stop() throws IOException {
        events.close();
        for (FakeEventChannel channel : channels) {
            channel.close();
        }
    }

    private FakeEventChannel channel(String name) throws IOException {
        FakeEventChannel channel = new FakeEventChannel(name);
        channels.add(channel);
        return channel;
    }

    /** Hands each event, with the thread it ran on, to a queue the test reads. */
    private record Recording(BlockingQueue<String> events, BlockingQueue<Thread> threads,
                             BlockingQueue<IOException> failures) implements EventHandler<String> {
        Recording() {
            this(new LinkedBlockingQueue<>(), new LinkedBlockingQueue<>(), new LinkedBlockingQueue<>());
        }

        @Override
        public void onEvent(String event) {
            threads.add(Thread.currentThread());
            events.add(event);
        }

        @Override
        public void onFailure(IOException failure) {
            failures.add(failure);
        }
    }

    /** A handler for tests whose sources do not fail. */
    private static EventHandler<String> onEvent(Consumer<String> action) {
        return new EventHandler<>() {
            @Override
            public void onEvent(String event) {
                action.accept(event);
            }

            @Override
            public void onFailure(IOException failure) {
                throw new AssertionError("a fake channel failed", failure);
            }
        };
    }

    @Test
    void eventsReachTheirHandlerInOrderOnTheDevicesPlatformThread() throws Exception {
        FakeEventChannel cm = channel("cm");
        Recording recording = new Recording();
        events.watch(cm, recording);
        cm.post("ADDR_RESOLVED");
        cm.post("ROUTE_RESOLVED");
        cm.post("ESTABLISHED");
        assertEquals("ADDR_RESOLVED", recording.events().take());
        assertEquals("ROUTE_RESOLVED", recording.events().take());
        assertEquals("ESTABLISHED", recording.events().take());
        Thread thread = recording.threads().take();
        assertSame(events.thread(), thread);
        assertFalse(thread.isVirtual());
        assertEquals("extsock-rdma-events-fake0", thread.getName());
    }

    @Test
    void unwatchFromAVirtualThreadWaitsForARunningHandlerAndThenTheSourceIsNeverTouched() throws Exception {
        FakeEventChannel cq = channel("cq");
        CountDownLatch inHandler = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Object watch = events.watch(cq, onEvent(event -> {
            inHandler.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        cq.post("completion");
        inHandler.await();
        CompletableFuture<Void> unwatched = new CompletableFuture<>();
        Thread caller = Thread.ofVirtual().start(() -> {
            events.unwatch(watch);
            unwatched.complete(null);
        });
        try {
            // The caller parks in unwatch, or (were unwatch not to wait) ends.
            while (caller.getState() != Thread.State.WAITING && caller.getState() != Thread.State.TERMINATED) {
                Thread.onSpinWait();
            }
            assertFalse(unwatched.isDone(), "unwatch returned while the handler was still running");
        } finally {
            // Whatever the verdict, the handler ends, so that closing the thread does not wait forever.
            release.countDown();
        }
        unwatched.join();
        assertEquals(1, cq.taken());
        cq.destroy();

        // Events after the unwatch stay in the channel: another source's event going through
        // proves the thread polled again, without the unwatched one.
        cq.post("late");
        FakeEventChannel other = channel("other");
        Recording recording = new Recording();
        events.watch(other, recording);
        other.post("next");
        assertEquals("next", recording.events().take());
        assertEquals(1, cq.taken());
    }

    @Test
    void aHandlerMayStopWatchingAndDestroyItsOwnSourceWithoutDeadlock() throws Exception {
        FakeEventChannel cm = channel("cm");
        AtomicReference<Object> watch = new AtomicReference<>();
        CountDownLatch destroyed = new CountDownLatch(1);
        BlockingQueue<String> seen = new LinkedBlockingQueue<>();
        watch.set(events.watch(cm, onEvent(event -> {
            seen.add(event);
            events.unwatch(watch.get());
            try {
                cm.destroy();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            destroyed.countDown();
        })));
        // Both are waiting before the thread wakes, so that "second" would be taken next
        // if the handler's unwatch did not stop the drain.
        synchronized (cm) {
            cm.post("DISCONNECTED");
            cm.post("second");
        }
        destroyed.await();
        assertEquals("DISCONNECTED", seen.take());
        // A take after destroy would have failed the fake; one more cycle proves none came.
        FakeEventChannel other = channel("other");
        Recording recording = new Recording();
        events.watch(other, recording);
        other.post("next");
        assertEquals("next", recording.events().take());
        assertEquals(1, cm.taken());
        assertTrue(seen.isEmpty());
    }

    @Test
    void aHandlerMayWatchANewSourceAsAListenerWatchesAnAcceptedConnection() throws Exception {
        FakeEventChannel listener = channel("listener");
        FakeEventChannel accepted = channel("accepted");
        Recording connection = new Recording();
        events.watch(listener, onEvent(event -> events.watch(accepted, connection)));
        listener.post("CONNECT_REQUEST");
        accepted.post("ESTABLISHED");
        assertEquals("ESTABLISHED", connection.events().take());
        assertSame(events.thread(), connection.threads().take());
    }

    @Test
    void aFailingSourceIsReportedOnceAndDroppedWhileTheOthersGoOn() throws Exception {
        FakeEventChannel broken = channel("broken");
        FakeEventChannel healthy = channel("healthy");
        Recording brokenRecording = new Recording();
        Recording healthyRecording = new Recording();
        events.watch(broken, brokenRecording);
        events.watch(healthy, healthyRecording);
        IOException failure = new IOException("rdma_get_cm_event failed: Bad file descriptor (errno 9)");
        broken.failNextTake(failure);
        assertSame(failure, brokenRecording.failures().take());
        broken.post("after the failure");
        healthy.post("fine");
        assertEquals("fine", healthyRecording.events().take());
        assertEquals(0, broken.taken());
        assertTrue(brokenRecording.events().isEmpty());
    }

    @Test
    void aHandlerThatThrowsDoesNotStopTheThread() throws Exception {
        FakeEventChannel cq = channel("cq");
        BlockingQueue<String> seen = new LinkedBlockingQueue<>();
        events.watch(cq, onEvent(event -> {
            seen.add(event);
            if (event.equals("bad")) {
                throw new IllegalStateException("a handler's bug");
            }
        }));
        cq.post("bad");
        assertEquals("bad", seen.take());
        cq.post("good");
        assertEquals("good", seen.take());
    }

    @Test
    void closeEndsTheThreadRefusesNewWatchesAndMayBeRepeated() throws Exception {
        FakeEventChannel cm = channel("cm");
        Object watch = events.watch(cm, new Recording());
        events.close();
        assertFalse(events.thread().isAlive());
        events.unwatch(watch);
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> events.watch(cm, new Recording()));
        assertEquals("extsock-rdma-events-fake0 is closed", refused.getMessage());
        events.close();
    }

    @Test
    void aHandlerCannotCloseItsOwnThread() throws Exception {
        FakeEventChannel cm = channel("cm");
        BlockingQueue<Throwable> thrown = new LinkedBlockingQueue<>();
        events.watch(cm, onEvent(event -> {
            try {
                events.close();
            } catch (Throwable e) {
                thrown.add(e);
            }
        }));
        cm.post("DEVICE_REMOVAL");
        Throwable e = thrown.take();
        assertTrue(e instanceof IllegalStateException, e.toString());
        assertEquals("close extsock-rdma-events-fake0 from outside it, not from a handler", e.getMessage());
    }
}
