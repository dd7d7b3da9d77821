package io.extsock.core.proof;

import static io.extsock.testkit.leak.CallEnds.endsAt;
import static io.extsock.testkit.leak.CallEnds.throwsAt;
import static io.extsock.testkit.leak.ResourceCount.PROCESS_REAPER;
import static io.extsock.testkit.leak.ResourceCount.liveThreads;
import static io.extsock.testkit.leak.ResourceCount.openDescriptors;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.core.ThreadProbe;
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
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The peer's process dies by SIGKILL with RDMA Writes and Reads outstanding and a stream read
 * and a stream write blocked: every work request outstanding then completes with an error
 * status within a second of the kill, the blocked write throws, the blocked read ends as it
 * would on TCP (end of stream when the dying kernel's FIN came at an FPDU boundary, an
 * exception when it reset the connection or cut an FPDU), the regions are deregistered, and
 * this JVM returns to its threads and descriptors.
 *
 * <p>Which requests are outstanding at the kill is known, not guessed: traffic runs (Writes and
 * Reads completing), then stops and drains; the peer is frozen (SIGSTOP, every thread seen
 * stopped), and only then are the last requests posted: Reads, which the frozen peer cannot
 * answer, and 1 MiB Writes, which cannot leave whole through TCP buffers four times smaller
 * (both ends' set small) that nobody on the far side empties. So none of them can complete
 * before the kill, and each must end in an error after it.
 */
@Timeout(120)
class PeerKilledIT {

    private static final int MIB = 1 << 20;
    /** Our end's TCP send buffer, asked for (the kernel doubles it, as the peer's receive buffer). */
    private static final int SEND_BUFFER = 64 * 1024;
    /** Requests posted after the freeze: half Reads, half Writes. */
    private static final int DOOMED = 8;
    private static final long BOUND_NANOS = TimeUnit.SECONDS.toNanos(1);

    @Test
    @DisplayName("kill -9 of the peer with requests outstanding: each fails within 1 s, blocked stream calls end, nothing leaks")
    void peerKilledMidTraffic() throws Exception {
        warmUpEngine();
        int threadsBefore = liveThreads(PROCESS_REAPER);
        int descriptorsBefore = openDescriptors();
        MemoryRegion source;
        MemoryRegion sink;
        try (JavaProcess peer = JavaProcess.startMain(DoomedPeerProcess.class);
             ExtendedSocket client = new ExtendedSocket()) {
            int port = Integer.parseInt(field(peer.nextLine(30, TimeUnit.SECONDS), "PORT")[1]);
            client.setOption(IwarpOptions.IWARP_MODE, true);
            client.setSendBufferSize(SEND_BUFFER);
            client.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            assertTrue(client.getSendBufferSize() + 2 * DoomedPeerProcess.RECEIVE_BUFFER <= MIB / 4,
                    "TCP holds far less than a Write: " + client.getSendBufferSize());
            String[] region = field(peer.nextLine(30, TimeUnit.SECONDS), "REGION");
            RemoteBuffer remote = new RemoteBuffer(Integer.parseInt(region[1]), Long.parseLong(region[2]),
                    Long.parseLong(region[3]));
            IwarpConnection verbs = client.iwarp();
            source = verbs.register(ByteBuffer.allocateDirect(MIB), Set.of());
            sink = verbs.register(ByteBuffer.allocateDirect(MIB), EnumSet.of(Access.LOCAL_WRITE));

            int completedBefore = traffic(verbs, remote, source, sink);
            // Blocked stream calls, each on a thread of its own (gone before the count below). The
            // read must end without data: -1 (the killed process's kernel closed TCP with a FIN
            // between FPDUs, as a plain socket's reader sees end of stream) or an exception.
            FutureTask<Long> reader = new FutureTask<>(() -> endsAt("peer killed", () -> client.getInputStream().read()));
            FutureTask<Long> writer = new FutureTask<>(() -> throwsAt(() ->
                    client.getOutputStream().write(new byte[64 * MIB])));  // the peer never reads: blocks
            Thread reading = new Thread(reader, "blocked-reader");
            Thread writing = new Thread(writer, "blocked-writer");
            reading.start();
            writing.start();
            ThreadProbe.awaitInside(reading, "io.extsock", "read");
            ThreadProbe.awaitInside(writing, "io.extsock", "write");

            peer.freeze();
            List<Long> doomed = postDoomed(verbs, remote, source, sink);
            assertEquals(0, verbs.completions().size(), "nothing can complete while the peer is frozen");
            assertFalse(reader.isDone() || writer.isDone(), "the stream calls wait: the peer neither writes nor reads");

            long killedAt = System.nanoTime();
            peer.kill();
            Map<Long, WorkCompletion> ended = new HashMap<>();
            long slowest = 0;
            while (ended.size() < doomed.size()) {
                WorkCompletion completion = verbs.completions().take(20, TimeUnit.SECONDS);
                assertNotNull(completion, "requests never completed after the kill: " + doomed + " less " + ended.keySet());
                slowest = Math.max(slowest, System.nanoTime() - killedAt);
                assertTrue(doomed.contains(completion.tag()), "a completion of no outstanding request: " + completion);
                assertNotEquals(CompletionStatus.SUCCESS, completion.status(),
                        "a request outstanding at the kill succeeded: " + completion);
                assertNull(ended.put(completion.tag(), completion), "completed twice: " + completion);
            }
            long readerEnded = reader.get(30, TimeUnit.SECONDS) - killedAt;
            long writerEnded = writer.get(30, TimeUnit.SECONDS) - killedAt;
            reading.join();
            writing.join();
            System.out.printf("peer killed: %d requests completed before the freeze; the %d outstanding ended in %s,"
                    + " the last %.1f ms after the SIGKILL; the blocked read ended after %.1f ms, the write after"
                    + " %.1f ms%n", completedBefore, doomed.size(), statuses(ended.values()), slowest / 1e6,
                    readerEnded / 1e6, writerEnded / 1e6);
            assertTrue(slowest <= BOUND_NANOS, "the last outstanding request ended " + slowest / 1_000_000
                    + " ms after the kill, past the second the README promises");
        }
        assertFalse(source.isValid() || sink.isValid(), "regions outlived the connection");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while ((liveThreads(PROCESS_REAPER) > threadsBefore || openDescriptors() > descriptorsBefore)
                && System.nanoTime() < deadline) {
            Thread.sleep(50);  // a polling interval while threads and descriptors wind down
        }
        System.out.printf("peer killed: threads %d -> %d, descriptors %d -> %d%n", threadsBefore,
                liveThreads(PROCESS_REAPER), descriptorsBefore, openDescriptors());
        // At most as many as before: a thread the warm-up started (a JVM or test-runner helper)
        // may have ended meanwhile, which is no leak.
        assertTrue(liveThreads(PROCESS_REAPER) <= threadsBefore,
                () -> "threads leaked: " + threadsBefore + " before, now " + Thread.getAllStackTraces().keySet());
        assertTrue(openDescriptors() <= descriptorsBefore, "descriptors leaked");
    }

    /**
     * Traffic while the peer lives: 1 MiB Writes and Reads, eight in flight, 64 of them, then
     * drained; every one must succeed. Returns how many completed.
     */
    private static int traffic(IwarpConnection verbs, RemoteBuffer remote, MemoryRegion source, MemoryRegion sink)
            throws IOException, InterruptedException {
        int posted = 0;
        int completed = 0;
        while (completed < 64) {
            while (posted < 64 && posted - completed < 8) {
                verbs.post(request(posted++, remote, source, sink));
            }
            WorkCompletion completion = verbs.completions().take(20, TimeUnit.SECONDS);
            assertNotNull(completion, "a work request never completed while the peer lived");
            assertEquals(CompletionStatus.SUCCESS, completion.status(), () -> "while the peer lived: " + completion);
            completed++;
        }
        return completed;
    }

    /** Posts the requests the kill must fail, Reads and Writes by turns, tags from 1,000; returns their tags. */
    private static List<Long> postDoomed(IwarpConnection verbs, RemoteBuffer remote, MemoryRegion source,
                                         MemoryRegion sink) throws IOException {
        List<Long> tags = new ArrayList<>();
        for (long tag = 1_001; tag <= 1_000 + DOOMED; tag++) {  // odd first: a Read
            verbs.post(request(tag, remote, source, sink));
            tags.add(tag);
        }
        return tags;
    }

    /** A 1 MiB Write (even tags) or Read (odd tags) of the peer's region. */
    private static io.extsock.verbs.WorkRequest request(long tag, RemoteBuffer remote, MemoryRegion source,
                                                        MemoryRegion sink) {
        return tag % 2 == 0
                ? new WriteRequest().tag(tag).gather(source.slice(0, MIB)).target(remote.slice(0, MIB))
                : new ReadRequest().tag(tag).source(remote.slice(MIB, MIB)).sink(sink.slice(0, MIB));
    }

    private static String statuses(Iterable<WorkCompletion> completions) {
        Map<String, Integer> counts = new TreeMap<>();
        for (WorkCompletion completion : completions) {
            counts.merge(completion.status() + " (" + completion.cause().origin() + ")", 1, Integer::sum);
        }
        return counts.toString();
    }

    private static String[] field(String line, String name) {
        String[] fields = line.trim().split(" ");
        assertEquals(name, fields[0], "the peer said: " + line);
        return fields;
    }

    /** One IWARP_MODE connection in this JVM first, so that the shared engine threads exist in the baseline. */
    private static void warmUpEngine() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open()) {
            pair.clientVerbs();
        }
    }
}
