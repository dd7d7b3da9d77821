package io.extsock.core.proof;

import static io.extsock.testkit.leak.CallEnds.endsAt;
import static io.extsock.testkit.leak.CallEnds.throwsAt;
import static io.extsock.testkit.leak.ResourceCount.PROCESS_REAPER;
import static io.extsock.testkit.leak.ResourceCount.liveThreads;
import static io.extsock.testkit.leak.ResourceCount.openDescriptors;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
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
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The peer's process dies by SIGKILL in the middle of RDMA Writes and Reads, with a stream
 * read and a stream write blocked: every work request outstanding then completes with an
 * error status, the blocked write throws, the blocked read ends as it would on TCP (end of stream
 * when the dying kernel's FIN came at an FPDU boundary, an exception when it reset the connection
 * or cut an FPDU), the regions are deregistered, and this JVM returns to its threads and
 * descriptors. The delays from the kill are printed for the note (a time limit
 * does not belong in a test).
 */
@Timeout(120)
class PeerKilledIT {

    private static final int MIB = 1 << 20;

    @Test
    @DisplayName("kill -9 of the peer mid-traffic: outstanding work fails, blocked stream calls end, nothing leaks")
    void peerKilledMidTraffic() throws Exception {
        warmUpEngine();
        int threadsBefore = liveThreads(PROCESS_REAPER);
        int descriptorsBefore = openDescriptors();
        ConcurrentLinkedQueue<Long> delays = new ConcurrentLinkedQueue<>();
        long killedAt;
        // Threads of our own, gone before the count (a shared pool's would linger and look leaked).
        ExecutorService threads = Executors.newFixedThreadPool(3);
        MemoryRegion source;
        MemoryRegion sink;
        try (JavaProcess peer = JavaProcess.startMain(DoomedPeerProcess.class);
             ExtendedSocket client = new ExtendedSocket()) {
            int port = Integer.parseInt(field(peer.nextLine(30, TimeUnit.SECONDS), "PORT")[1]);
            client.setOption(IwarpOptions.IWARP_MODE, true);
            client.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            String[] region = field(peer.nextLine(30, TimeUnit.SECONDS), "REGION");
            RemoteBuffer remote = new RemoteBuffer(Integer.parseInt(region[1]), Long.parseLong(region[2]),
                    Long.parseLong(region[3]));
            IwarpConnection verbs = client.iwarp();
            source = verbs.register(ByteBuffer.allocateDirect(MIB), Set.of());
            sink = verbs.register(ByteBuffer.allocateDirect(MIB), EnumSet.of(Access.LOCAL_WRITE));

            long[] killed = {0};
            CompletableFuture<Integer> traffic = CompletableFuture.supplyAsync(() -> keepBusy(verbs, remote, source,
                    sink, killed, delays), threads);
            // The blocked read must end without data: -1 (the killed process's kernel closed TCP with a
            // FIN between FPDUs, as a plain socket's reader sees end of stream) or an exception.
            CompletableFuture<Long> reader = CompletableFuture.supplyAsync(() -> endsAt("peer killed", () ->
                    client.getInputStream().read()), threads);
            CompletableFuture<Long> writer = CompletableFuture.supplyAsync(() -> throwsAt(() ->
                    client.getOutputStream().write(new byte[64 * MIB])), threads);  // the peer never reads: blocks
            Thread.sleep(500);
            assertFalse(reader.isDone() || writer.isDone() || traffic.isDone(), "all busy before the kill");
            killedAt = System.nanoTime();
            killed[0] = killedAt;
            peer.kill();
            int failedRequests = traffic.get(30, TimeUnit.SECONDS);
            delays.add(reader.get(30, TimeUnit.SECONDS) - killedAt);
            delays.add(writer.get(30, TimeUnit.SECONDS) - killedAt);
            assertTrue(failedRequests >= 1, "outstanding requests ended in errors: " + failedRequests);
            long slowest = delays.stream().mapToLong(Long::longValue).max().orElseThrow();
            System.out.printf("peer killed: %d outstanding requests and 2 blocked stream calls ended, slowest %.1f ms"
                    + " after the SIGKILL%n", failedRequests, slowest / 1e6);
        }
        threads.shutdown();
        assertTrue(threads.awaitTermination(10, TimeUnit.SECONDS));
        assertFalse(source.isValid() || sink.isValid(), "regions outlived the connection");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while ((liveThreads(PROCESS_REAPER) > threadsBefore || openDescriptors() > descriptorsBefore)
                && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        System.out.printf("peer killed: threads %d -> %d, descriptors %d -> %d%n", threadsBefore,
                liveThreads(PROCESS_REAPER), descriptorsBefore, openDescriptors());
        assertEquals(threadsBefore, liveThreads(PROCESS_REAPER),
                () -> "threads leaked: " + Thread.getAllStackTraces().keySet());
        assertTrue(openDescriptors() <= descriptorsBefore, "descriptors leaked");
    }

    /**
     * Keeps eight 1 MiB Writes and Reads in flight until the connection dies; every request
     * completing after the kill must be an error. Returns how many ended in errors.
     */
    private static int keepBusy(IwarpConnection verbs, RemoteBuffer remote, MemoryRegion source, MemoryRegion sink,
                                long[] killed, ConcurrentLinkedQueue<Long> delays) {
        int outstanding = 0;
        int errors = 0;
        boolean ended = false;
        try {
            long tag = 0;
            while (!ended || outstanding > 0) {
                while (!ended && outstanding < 8) {
                    try {
                        if (tag % 2 == 0) {
                            verbs.post(new WriteRequest().tag(tag).gather(source.slice(0, MIB)).target(remote.slice(0, MIB)));
                        } else {
                            verbs.post(new ReadRequest().tag(tag).source(remote.slice(MIB, MIB)).sink(sink.slice(0, MIB)));
                        }
                        tag++;
                        outstanding++;
                    } catch (IOException connectionEnded) {
                        ended = true;
                    }
                }
                if (outstanding == 0) {
                    break;
                }
                WorkCompletion completion = verbs.completions().take(20, TimeUnit.SECONDS);
                assertNotNull(completion, "a work request never completed");
                long now = System.nanoTime();
                outstanding--;
                if (completion.status() != CompletionStatus.SUCCESS) {
                    assertTrue(killed[0] != 0, "an error before the kill: " + completion);
                    errors++;
                    ended = true;
                    delays.add(now - killed[0]);
                }
            }
            return errors;
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
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
