package io.extsock.core.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.spi.Readiness;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WriteRequest;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A connection's readiness as a selector sees it, over loopback: with no thread waiting on the
 * connection, each change (bytes arriving, credits returning, a completion, the peer's close)
 * comes as a call to the watch, after which {@link Readiness#readyOps} says so.
 */
@Timeout(60)
class StreamReadinessTest {

    private static final long LONG_ENOUGH_SECONDS = 20;

    @Test
    void bytesArrivingWithNobodyWaitingAreSignalledAndMakeTheStreamReadable() throws Exception {
        try (StreamPair pair = StreamPair.open()) {
            // A platform thread reads first, so reading is the application's (a stream-only
            // connection's): the watch must have the engine take it back.
            pair.writer.write(new byte[] {1}, 0, 1);
            assertEquals(1, pair.reader.read(new byte[1], 0, 1, 0));
            Readiness readiness = pair.responder.readiness();
            assertEquals(0, readiness.readyOps() & Readiness.READABLE, "nothing sent yet");
            assertTrue((readiness.readyOps() & Readiness.WRITABLE) != 0, "a new stream has the peer's credits");

            try (Watcher watcher = new Watcher(readiness, ops -> (ops & Readiness.READABLE) != 0)) {
                pair.writer.write(new byte[] {2, 3, 4}, 0, 3);
                watcher.awaitReady();
            }
            byte[] got = new byte[8];
            assertEquals(3, pair.reader.read(got, 0, got.length, 0), "readable: the read returns at once");
            assertEquals(0, readiness.readyOps() & Readiness.READABLE, "all read");
        }
    }

    @Test
    void everyWriteWhileWritableReturnsAndCreditsComingBackMakeItWritableAgain() throws Exception {
        try (StreamPair pair = StreamPair.open()) {
            Readiness readiness = pair.initiator.readiness();
            byte[] message = new byte[64];
            long written = 0;
            // Each write made while WRITABLE must return without the reader doing anything (a
            // write that waited would hang here until the test's timeout).
            while ((readiness.readyOps() & Readiness.WRITABLE) != 0) {
                pair.writer.write(message, 0, message.length);
                written += message.length;
                assertTrue(written < 64L * 1024 * 1024, "the peer's window never filled");
            }
            try (Watcher watcher = new Watcher(readiness, ops -> (ops & Readiness.WRITABLE) != 0)) {
                byte[] sink = new byte[64 * 1024];
                for (long read = 0; read < written; ) {
                    read += pair.reader.read(sink, 0, sink.length, 0);
                }
                watcher.awaitReady();
            }
        }
    }

    @Test
    void thePeersCloseIsSignalledAsClosedAndReadable() throws Exception {
        try (StreamPair pair = StreamPair.open()) {
            Readiness readiness = pair.responder.readiness();
            try (Watcher watcher = new Watcher(readiness, ops -> (ops & Readiness.CLOSED) != 0)) {
                pair.writer.close();
                watcher.awaitReady();
            }
            assertTrue((readiness.readyOps() & Readiness.READABLE) != 0, "a read returns the end at once");
            assertEquals(-1, pair.reader.read(new byte[1], 0, 1, 0));
        }
    }

    @Test
    void aCompletionIsSignalledAndCounted() throws Exception {
        try (StreamPair pair = StreamPair.open()) {
            MemoryRegion target = pair.responder.connection().register(ByteBuffer.allocateDirect(4096),
                    EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
            MemoryRegion source = pair.initiator.connection().register(ByteBuffer.allocateDirect(4096), Set.of());
            Readiness readiness = pair.initiator.readiness();
            assertEquals(0, readiness.readyOps() & Readiness.COMPLETIONS);
            try (Watcher watcher = new Watcher(readiness, ops -> (ops & Readiness.COMPLETIONS) != 0)) {
                pair.initiator.connection().post(new WriteRequest().tag(7).gather(source.slice(0, 4096))
                        .target(target.remote()));
                watcher.awaitReady();
            }
            WorkCompletion completion = pair.initiator.connection().completions().take(LONG_ENOUGH_SECONDS,
                    TimeUnit.SECONDS);
            assertNotNull(completion);
            assertEquals(CompletionStatus.SUCCESS, completion.status());
            assertEquals(0, readiness.readyOps() & Readiness.COMPLETIONS, "taken");
        }
    }

    @Test
    void aClosedWatchIsCalledNoMore() throws Exception {
        try (StreamPair pair = StreamPair.open()) {
            Readiness readiness = pair.responder.readiness();
            AtomicInteger closedWatchCalls = new AtomicInteger();
            Readiness.Watch closing = readiness.watch(closedWatchCalls::incrementAndGet);
            // Added after it, so called after it on each change: once the witness saw the bytes,
            // the closed watch would have been called for them already.
            try (Watcher witness = new Watcher(readiness, ops -> (ops & Readiness.READABLE) != 0)) {
                closing.close();
                closing.close();  // twice: nothing more happens
                int before = closedWatchCalls.get();
                pair.writer.write(new byte[] {5}, 0, 1);
                witness.awaitReady();
                assertEquals(before, closedWatchCalls.get(), "a closed watch was called");
            }
        }
    }

    /** A watch that counts down once the connection's readiness satisfies a predicate. */
    private static final class Watcher implements AutoCloseable {
        private final CountDownLatch ready = new CountDownLatch(1);
        private final Readiness readiness;
        private final IntPredicate wanted;
        private final Readiness.Watch watch;

        Watcher(Readiness readiness, IntPredicate wanted) {
            this.readiness = readiness;
            this.wanted = wanted;
            this.watch = readiness.watch(this::look);
        }

        private void look() {
            if (wanted.test(readiness.readyOps())) {
                ready.countDown();
            }
        }

        /** Waits for a call that found what it waits for; nothing else looks meanwhile. */
        void awaitReady() throws InterruptedException {
            assertTrue(ready.await(LONG_ENOUGH_SECONDS, TimeUnit.SECONDS),
                    "no call came with the readiness waited for; now " + readiness.readyOps());
        }

        @Override
        public void close() {
            watch.close();
        }
    }
}
