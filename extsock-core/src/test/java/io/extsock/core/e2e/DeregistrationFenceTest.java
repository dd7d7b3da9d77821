package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.extsock.IwarpOptions;
import io.extsock.testkit.fault.FaultPlan;
import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WriteRequest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Deregistration racing with the connection's use of the region, on real sockets: once {@code
 * close()} returns, the connection writes not one more octet into the buffer and sends not one
 * more octet of it. Each test keeps the traffic going on other threads, closes the region in
 * the middle of it, overwrites the buffer with a sentinel at once and checks that the sentinel
 * survives whatever the connection still does, many rounds over.
 */
@Timeout(300)
class DeregistrationFenceTest {

    private static final int ROUNDS = 12;
    private static final int REGION = 1 << 20;
    private static final int CHUNK = 256 * 1024;
    private static final int OUTSTANDING = 8;
    private static final byte PEER_DATA = 0x5A;
    private static final byte SENTINEL = (byte) 0xC3;
    private static final Set<Access> WRITABLE = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE);

    @Test
    @DisplayName("the peer's RDMA Writes: none lands after close(); the next one is an invalid STag")
    void peerWritesStopAtDeregistration() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
                IwarpConnection client = pair.clientVerbs();
                IwarpConnection server = pair.serverVerbs();
                ByteBuffer target = ByteBuffer.allocateDirect(REGION);
                MemoryRegion region = server.register(target, WRITABLE);
                RemoteBuffer advertised = region.remote();
                MemoryRegion source = client.register(filled(ByteBuffer.allocateDirect(CHUNK), PEER_DATA), Set.of());

                AtomicInteger completed = new AtomicInteger();
                CompletableFuture<String> writer = CompletableFuture.supplyAsync(() -> keepPosting(completed,
                        offset -> client.submit(new WriteRequest().gather(source.slice(0, CHUNK))
                                .target(new RemoteBuffer(advertised.stag(), offset % (REGION - CHUNK + 1), CHUNK)))));
                awaitAtLeast(completed, 4 + round);
                region.close();
                filled(target.duplicate(), SENTINEL);

                writer.get(60, TimeUnit.SECONDS);
                String ended = endOf(client);
                assertTrue(ended.contains("invalid STag"), "the writes end with a Terminate for an invalid STag: "
                        + ended);
                assertAll(target, SENTINEL, "the region after close()");
            }
        }
    }

    @Test
    @DisplayName("Read Responses into our sink: none lands after the sink's close()")
    void readResponsesStopAtTheSinksDeregistration() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
                IwarpConnection client = pair.clientVerbs();
                IwarpConnection server = pair.serverVerbs();
                MemoryRegion exposed = server.register(filled(ByteBuffer.allocateDirect(REGION), PEER_DATA),
                        EnumSet.of(Access.REMOTE_READ));
                RemoteBuffer advertised = exposed.remote();
                ByteBuffer sinkBuffer = ByteBuffer.allocateDirect(REGION);
                MemoryRegion sink = client.register(sinkBuffer, EnumSet.of(Access.LOCAL_WRITE));

                AtomicInteger completed = new AtomicInteger();
                CompletableFuture<String> reader = CompletableFuture.supplyAsync(() -> keepPosting(completed,
                        offset -> {
                            long at = offset % (REGION - CHUNK + 1);
                            return client.submit(new ReadRequest().source(new RemoteBuffer(advertised.stag(), at,
                                    CHUNK)).sink(sink.slice(at, CHUNK)));
                        }));
                awaitAtLeast(completed, 4 + round);
                sink.close();
                filled(sinkBuffer.duplicate(), SENTINEL);

                String ended = reader.get(60, TimeUnit.SECONDS);
                assertTrue(ended.contains("LOCAL_PROTECTION_ERROR"), "Reads into the closed sink are refused: "
                        + ended);
                assertAll(sinkBuffer, SENTINEL, "the sink after close()");
            }
        }
    }

    @Test
    @DisplayName("a Read whose sink is closed while its response is under way completes LOCAL_PROTECTION_ERROR, not SUCCESS")
    void aReadWhoseSinkClosedMidResponseDoesNotSucceed() throws Exception {
        // The server's bytes come in 4 KiB pieces a millisecond apart: the 1 MiB response
        // takes a quarter of a second or more, and the sink closes in its middle.
        try (IwarpSocketPair pair = IwarpSocketPair.builder()
                .through(FaultPlan.none(), FaultPlan.none().segments(4096, 4096, 1).delayEachSegment(Duration.ofMillis(1)))
                .option(IwarpOptions.STREAMS, false)
                .open()) {
            IwarpConnection client = pair.clientVerbs();
            MemoryRegion exposed = pair.serverVerbs().register(filled(ByteBuffer.allocateDirect(REGION), PEER_DATA),
                    EnumSet.of(Access.REMOTE_READ));
            ByteBuffer sinkBuffer = ByteBuffer.allocateDirect(REGION);
            MemoryRegion sink = client.register(sinkBuffer, EnumSet.of(Access.LOCAL_WRITE));

            CompletableFuture<WorkCompletion> read = client.submit(new ReadRequest().source(exposed.remote())
                    .sink(sink.slice(0, REGION)));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (sinkBuffer.get(0) != PEER_DATA) {  // the response has begun to land
                assertTrue(System.nanoTime() < deadline, "no Read Response octet arrived");
                Thread.onSpinWait();
            }
            sink.close();
            filled(sinkBuffer.duplicate(), SENTINEL);

            WorkCompletion done = read.get(30, TimeUnit.SECONDS);
            assertEquals(CompletionStatus.LOCAL_PROTECTION_ERROR, done.status(), done.detail());
            assertTrue(done.detail().contains("closed"), done.detail());
            assertAll(sinkBuffer, SENTINEL, "the sink after close()");
            assertEquals(CompletionStatus.SUCCESS, client.submit(new ReadRequest().source(exposed.remote(0, 64))
                    .sink(client.register(ByteBuffer.allocateDirect(64), EnumSet.of(Access.LOCAL_WRITE)).slice(0, 64)))
                    .get(30, TimeUnit.SECONDS).status(), "the connection carries on");
        }
    }

    @Test
    @DisplayName("the peer's RDMA Reads of our region: no Read Response carries what we wrote after close()")
    void readResponsesAreNotSourcedAfterDeregistration() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
                IwarpConnection client = pair.clientVerbs();
                IwarpConnection server = pair.serverVerbs();
                ByteBuffer exposedBuffer = filled(ByteBuffer.allocateDirect(REGION), PEER_DATA);
                MemoryRegion exposed = server.register(exposedBuffer, EnumSet.of(Access.REMOTE_READ));
                RemoteBuffer advertised = exposed.remote();
                ByteBuffer sinkBuffer = ByteBuffer.allocateDirect(REGION);
                MemoryRegion sink = client.register(sinkBuffer, EnumSet.of(Access.LOCAL_WRITE));

                AtomicInteger completed = new AtomicInteger();
                AtomicInteger sentinelSeen = new AtomicInteger();
                CompletableFuture<String> reader = CompletableFuture.supplyAsync(() -> keepPosting(completed,
                        offset -> {
                            long at = offset % (REGION - CHUNK + 1);
                            return client.submit(new ReadRequest().source(new RemoteBuffer(advertised.stag(), at,
                                    CHUNK)).sink(sink.slice(at, CHUNK))).thenApply(done -> {
                                        if (done.status() == CompletionStatus.SUCCESS
                                                && contains(sinkBuffer, (int) at, CHUNK, SENTINEL)) {
                                            sentinelSeen.incrementAndGet();
                                        }
                                        return done;
                                    });
                        }));
                awaitAtLeast(completed, 4 + round);
                exposed.close();
                filled(exposedBuffer.duplicate(), SENTINEL);

                reader.get(60, TimeUnit.SECONDS);
                String ended = endOf(client);
                assertTrue(ended.contains("invalid STag"), "the Reads end with the peer's Terminate for an invalid"
                        + " STag: " + ended);
                assertEquals(0, sentinelSeen.get(), "Read Responses carrying octets written after close()");
            }
        }
    }

    /** An operation to post, given a running offset; returns its completion. */
    private interface Poster {
        CompletableFuture<WorkCompletion> post(long offset) throws IOException;
    }

    /**
     * Posts with up to {@link #OUTSTANDING} outstanding until one fails; returns how it ended,
     * in words (the failed completion, or the exception of the post the ended connection refused).
     */
    private static String keepPosting(AtomicInteger completed, Poster poster) {
        ArrayDeque<CompletableFuture<WorkCompletion>> outstanding = new ArrayDeque<>();
        long offset = 0;
        String ended = null;
        try {
            while (ended == null) {
                while (outstanding.size() < OUTSTANDING) {
                    outstanding.add(poster.post(offset));
                    offset += 4096 + CHUNK;
                }
                WorkCompletion done = outstanding.poll().get(60, TimeUnit.SECONDS);
                if (done.status() != CompletionStatus.SUCCESS) {
                    ended = done.status() + ": " + done.detail() + " " + done.cause();
                } else {
                    completed.incrementAndGet();
                }
            }
        } catch (IOException | IllegalStateException e) {
            ended = e.toString();
        } catch (ExecutionException e) {
            ended = e.getCause().toString();
        } catch (Exception e) {
            ended = "unexpected: " + e;
        }
        for (CompletableFuture<WorkCompletion> left : outstanding) {
            try {
                left.get(60, TimeUnit.SECONDS);  // every operation settles before the checks
            } catch (Exception ignored) {
                // its outcome is not what this test checks
            }
        }
        return ended;
    }

    /** How the connection ended, as its toString says (waiting for the end to be known). */
    private static String endOf(IwarpConnection connection) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (connection.toString().contains("state=CONNECTED")) {
            if (System.nanoTime() > deadline) {
                fail("the connection did not end: " + connection);
            }
            Thread.sleep(1);  // a polling interval
        }
        return connection.toString();
    }

    private static void awaitAtLeast(AtomicInteger completed, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (completed.get() < count) {
            if (System.nanoTime() > deadline) {
                fail("only " + completed.get() + " operations completed");
            }
            Thread.sleep(1);  // a polling interval
        }
    }

    private static ByteBuffer filled(ByteBuffer buffer, byte value) {
        while (buffer.hasRemaining()) {
            buffer.put(value);
        }
        return buffer.clear();
    }

    private static boolean contains(ByteBuffer buffer, int from, int length, byte value) {
        for (int i = from; i < from + length; i++) {
            if (buffer.get(i) == value) {
                return true;
            }
        }
        return false;
    }

    private static void assertAll(ByteBuffer buffer, byte value, String what) {
        for (int i = 0; i < buffer.capacity(); i++) {
            if (buffer.get(i) != value) {
                fail(what + ": octet " + i + " was overwritten (" + buffer.get(i) + ")");
            }
        }
    }
}
