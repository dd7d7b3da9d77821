package io.extsock.internal.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedSelectorProvider;
import io.extsock.spi.Readiness;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.spi.AbstractSelectableChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The selector's side of readiness that does not come from a descriptor (a channel in
 * IWARP_MODE), with a channel whose every answer the test sets: what wakes a selection, what
 * ends it, what it reports, and what it asks of the descriptor underneath (a pipe's).
 */
@Timeout(30)
class EventReadinessSelectionTest {

    private final Pipe pipe;
    private final EventChannel channel;
    private final Selector selector;

    EventReadinessSelectionTest() throws IOException {
        pipe = Pipe.open();
        pipe.source().configureBlocking(false);
        channel = new EventChannel(pipe.source());
        channel.configureBlocking(false);
        selector = ExtendedSelectorProvider.provider().openSelector();
    }

    @AfterEach
    void close() throws IOException {
        selector.close();
        channel.close();
        pipe.sink().close();
    }

    @Test
    void readinessWithoutTheDescriptorWakesABlockedSelectionAndStaysSelectedWhileItLasts() throws Exception {
        SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
        CompletableFuture<Integer> selection = selectInBackground();

        channel.becomeReady(SelectionKey.OP_READ);

        assertEquals(1, selection.get(10, TimeUnit.SECONDS));
        assertTrue(selector.selectedKeys().contains(key));
        assertEquals(SelectionKey.OP_READ, key.readyOps());
        assertEquals(0, selector.select(10_000), "level-triggered: still ready, not blocking, counted once");
        assertTrue(selector.selectedKeys().contains(key));

        selector.selectedKeys().clear();
        assertEquals(1, selector.selectNow(), "still ready: selected again");
    }

    @Test
    void aChangeThatBringsNothingOfInterestDoesNotEndTheSelection() throws Exception {
        SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
        CompletableFuture<Integer> selection = selectInBackground();

        for (int i = 0; i < 50; i++) {
            int looked = channel.looks.get();
            channel.becomeReady(SelectionKey.OP_WRITE);  // ready, but not for what the key wants
            channel.awaitLookAfter(looked);
        }
        assertFalse(selection.isDone(), "woken 50 times for nothing of interest, and it returned");

        channel.becomeReady(SelectionKey.OP_READ);
        assertEquals(1, selection.get(10, TimeUnit.SECONDS));
        assertEquals(SelectionKey.OP_READ, key.readyOps());
    }

    @Test
    void theDescriptorIsWatchedForWhatTheChannelAsksAndItsReadinessMeansWhatTheChannelSays() throws Exception {
        SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
        channel.descriptorInterest = 0;  // the engine reads the socket: not the selector's to watch
        channel.changed();
        pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
        assertEquals(0, selector.selectNow(), "the descriptor is readable, but not watched");

        channel.descriptorInterest = SelectionKey.OP_READ;
        channel.fromDescriptor = 0;  // readable means nothing yet (a negotiation going on, say)
        channel.changed();
        assertEquals(0, selector.selectNow(), "watched, readable, and meaning nothing to the application");

        channel.fromDescriptor = -1;  // as it is
        assertEquals(1, selector.selectNow());
        assertEquals(SelectionKey.OP_READ, key.readyOps());
    }

    @Test
    void wakeupStillEndsASelectionAndAKeyThatLeavesClosesItsWatch() throws Exception {
        SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
        CompletableFuture<Integer> selection = selectInBackground();
        selector.wakeup();
        assertEquals(0, selection.get(10, TimeUnit.SECONDS));

        assertTrue(channel.watched());
        key.cancel();
        selector.selectNow();
        assertFalse(channel.watched(), "the key left: the channel is watched no more");
    }

    private CompletableFuture<Integer> selectInBackground() throws InterruptedException {
        CompletableFuture<Integer> selection = new CompletableFuture<>();
        Thread selecting = new Thread(() -> {
            try {
                selection.complete(selector.select());
            } catch (Throwable e) {
                selection.completeExceptionally(e);
            }
        });
        selecting.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!blockedInSelect(selecting)) {
            assertTrue(System.nanoTime() < deadline, "the selection never blocked");
            Thread.sleep(1);  // a polling interval while the thread gets there
        }
        return selection;
    }

    private static boolean blockedInSelect(Thread thread) {
        for (StackTraceElement frame : thread.getStackTrace()) {
            if (frame.isNativeMethod() && (frame.getMethodName().equals("wait")
                    || frame.getMethodName().startsWith("poll"))) {
                return true;
            }
        }
        return false;
    }

    /** A channel of extsock's provider over a pipe's source, whose readiness the test sets. */
    private static final class EventChannel extends AbstractSelectableChannel implements PlatformBacked, EventReadiness {
        private final Pipe.SourceChannel platform;
        private final PlatformKeys platformKeys = new PlatformKeys();
        volatile int ready;
        volatile int descriptorInterest = -1;
        volatile int fromDescriptor = -1;
        final AtomicInteger looks = new AtomicInteger();
        private volatile Runnable watcher;

        EventChannel(Pipe.SourceChannel platform) {
            super(ExtendedSelectorProvider.provider());
            this.platform = platform;
        }

        void becomeReady(int ops) {
            ready = ops;
            changed();
        }

        void changed() {
            Runnable current = watcher;
            if (current != null) {
                current.run();
            }
        }

        boolean watched() {
            return watcher != null;
        }

        /** Waits until the selector looked at the readiness after {@code before} looks. */
        void awaitLookAfter(int before) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (looks.get() <= before) {
                assertTrue(System.nanoTime() < deadline, "the selector never looked");
                Thread.sleep(1);  // a polling interval while the selector gets there
            }
        }

        @Override
        public SelectableChannel platformChannel() {
            return platform;
        }

        @Override
        public void watchedBy(SelectionKey platformKey) {
            platformKeys.add(platformKey);
        }

        @Override
        public boolean fromEvents() {
            return false;  // from the first change, as a channel that switches after registering
        }

        @Override
        public int descriptorInterest(int interest) {
            return descriptorInterest == -1 ? interest : descriptorInterest & interest;
        }

        @Override
        public int fromDescriptor(int descriptorReady) {
            return fromDescriptor == -1 ? descriptorReady : fromDescriptor;
        }

        @Override
        public int readyOps(int interest) {
            looks.incrementAndGet();
            return ready & interest;
        }

        @Override
        public Readiness.Watch watch(Runnable changed) {
            assertNull(watcher, "one selector at a time in these tests");
            watcher = changed;
            return () -> watcher = null;
        }

        @Override
        public int validOps() {
            return SelectionKey.OP_READ | SelectionKey.OP_WRITE;
        }

        @Override
        protected void implCloseSelectableChannel() throws IOException {
            platform.close();
        }

        @Override
        protected void implConfigureBlocking(boolean block) throws IOException {
            if (block) {
                platformKeys.cancelAll();
            }
            platform.configureBlocking(block);
        }
    }
}
