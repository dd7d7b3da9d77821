package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WorkOpcode;
import io.extsock.verbs.WriteRequest;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Each verbs operation end to end over loopback, between two IWARP_MODE sockets in one JVM. */
@Timeout(60)
class VerbsOperationsTest {

    private static final Set<Access> REMOTE_RW = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE);

    @Test
    @DisplayName("RFC 5040 5.1: an RDMA Write lands in the peer's region without the peer doing anything")
    void rdmaWriteIsOneSided() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection client = pair.clientVerbs();
            IwarpConnection server = pair.serverVerbs();
            MemoryRegion target = server.register(ByteBuffer.allocateDirect(1 << 20), REMOTE_RW);
            byte[] data = random(300_000, 1);
            MemoryRegion source = client.register(ByteBuffer.allocateDirect(data.length).put(data).flip(),
                    Set.of());
            RemoteBuffer where = target.remote(1000, data.length);

            WorkCompletion done = client.submit(new WriteRequest().tag(7).gather(source.slice(0, data.length))
                    .target(where)).get(20, TimeUnit.SECONDS);
            assertEquals(CompletionStatus.SUCCESS, done.status(), done.detail());
            assertEquals(7, done.tag());
            assertEquals(WorkOpcode.RDMA_WRITE, done.opcode());
            assertEquals(data.length, done.byteLength());

            // One-sided: the data lands with no call on the server; wait until all of it has.
            byte[] landed = new byte[data.length];
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            do {
                target.buffer().get(1000, landed);
            } while (!java.util.Arrays.equals(data, landed) && System.nanoTime() < deadline);
            assertArrayEquals(data, landed);
            assertEquals(0, server.completions().size(), "one-sided: nothing to complete on the target");
        }
    }

    @Test
    @DisplayName("RFC 5040 5.2: an RDMA Read fetches the peer's region; the peer does nothing")
    void rdmaReadIsOneSided() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection client = pair.clientVerbs();
            IwarpConnection server = pair.serverVerbs();
            byte[] data = random(250_000, 2);
            MemoryRegion exposed = server.register(ByteBuffer.allocateDirect(data.length).put(data).flip(),
                    EnumSet.of(Access.REMOTE_READ));
            MemoryRegion sink = client.register(ByteBuffer.allocateDirect(data.length + 100),
                    EnumSet.of(Access.LOCAL_WRITE));

            WorkCompletion done = client.submit(new ReadRequest().tag(9).source(exposed.remote())
                    .sink(sink.slice(100, data.length))).get(20, TimeUnit.SECONDS);
            assertEquals(CompletionStatus.SUCCESS, done.status(), done.detail());
            assertEquals(WorkOpcode.RDMA_READ, done.opcode());
            assertEquals(data.length, done.byteLength());
            byte[] got = new byte[data.length];
            sink.buffer().get(100, got);
            assertArrayEquals(data, got);
            assertEquals(0, server.completions().size());
        }
    }

    @Test
    @DisplayName("RFC 5040 5.3: Sends match posted Receives in order; completions report length and flags")
    void sendsAndReceives() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection client = pair.clientVerbs();
            IwarpConnection server = pair.serverVerbs();
            MemoryRegion inbox = server.register(ByteBuffer.allocateDirect(3 * 8192), EnumSet.of(Access.LOCAL_WRITE));
            for (int i = 0; i < 3; i++) {
                server.post(new ReceiveRequest().tag(100 + i).scatter(inbox.slice(i * 8192L, 8192)));
            }
            MemoryRegion outbox = client.register(ByteBuffer.allocateDirect(8192), Set.of());
            outbox.buffer().put(0, "hello".getBytes());
            outbox.buffer().put(100, new byte[5000]);
            client.post(new SendRequest().tag(1).gather(outbox.slice(0, 5)));
            client.post(new SendRequest().tag(2).gather(outbox.slice(100, 5000)).solicited(true));
            client.post(new SendRequest().tag(3));  // zero-length

            for (int i = 0; i < 3; i++) {
                WorkCompletion sent = client.completions().take(10, TimeUnit.SECONDS);
                assertNotNull(sent);
                assertEquals(i + 1, sent.tag());
                assertEquals(CompletionStatus.SUCCESS, sent.status(), sent.detail());
            }
            WorkCompletion first = server.completions().take(10, TimeUnit.SECONDS);
            WorkCompletion second = server.completions().take(10, TimeUnit.SECONDS);
            WorkCompletion third = server.completions().take(10, TimeUnit.SECONDS);
            assertEquals(100, first.tag());
            assertEquals(WorkOpcode.RECEIVE, first.opcode());
            assertEquals(5, first.byteLength());
            assertFalse(first.solicited());
            byte[] hello = new byte[5];
            inbox.buffer().get(0, hello);
            assertEquals("hello", new String(hello));
            assertEquals(5000, second.byteLength());
            assertTrue(second.solicited());
            assertEquals(0, third.byteLength());
        }
    }

    @Test
    @DisplayName("Posting lists of Sends and of Receives: every message arrives whole, in order, over loopback")
    void postingLists() throws Exception {
        int size = 4096;
        int lists = 32;
        int perList = 16;
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection client = pair.clientVerbs();
            IwarpConnection server = pair.serverVerbs();
            int total = lists * perList;
            byte[] data = random(total * size, 5);
            MemoryRegion inbox = server.register(ByteBuffer.allocateDirect(total * size), EnumSet.of(Access.LOCAL_WRITE));
            MemoryRegion outbox = client.register(ByteBuffer.allocateDirect(data.length).put(data).flip(), Set.of());
            java.util.List<ReceiveRequest> receives = new java.util.ArrayList<>();
            java.util.List<SendRequest> sends = new java.util.ArrayList<>();
            for (int list = 0; list < lists; list++) {
                receives.clear();
                sends.clear();
                for (int i = list * perList; i < (list + 1) * perList; i++) {
                    receives.add(new ReceiveRequest().tag(i).scatter(inbox.slice((long) i * size, size)));
                    sends.add(new SendRequest().tag(i).gather(outbox.slice((long) i * size, size)));
                }
                server.post(receives);
                client.post(sends);
                for (int i = list * perList; i < (list + 1) * perList; i++) {
                    WorkCompletion sent = client.completions().take(10, TimeUnit.SECONDS);
                    assertNotNull(sent, "Send " + i + " completes");
                    assertEquals(CompletionStatus.SUCCESS, sent.status(), sent.detail());
                    assertEquals(i, sent.tag());
                    WorkCompletion received = server.completions().take(10, TimeUnit.SECONDS);
                    assertNotNull(received, "Send " + i + " arrives");
                    assertEquals(i, received.tag(), "in posting order");
                    assertEquals(size, received.byteLength());
                }
            }
            byte[] arrived = new byte[data.length];
            inbox.buffer().get(0, arrived);
            assertArrayEquals(data, arrived);
        }
    }

    @Test
    @DisplayName("A Receive may scatter one Send over several buffers")
    void receiveScattersOverSlices() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection client = pair.clientVerbs();
            IwarpConnection server = pair.serverVerbs();
            MemoryRegion a = server.register(ByteBuffer.allocateDirect(1000), EnumSet.of(Access.LOCAL_WRITE));
            MemoryRegion b = server.register(ByteBuffer.allocate(5000), EnumSet.of(Access.LOCAL_WRITE));
            server.post(new ReceiveRequest().tag(1).scatter(a.slice(0, 1000), b.slice(0, 5000)));
            byte[] data = random(4000, 3);
            MemoryRegion out = client.register(ByteBuffer.allocateDirect(data.length).put(data).flip(), Set.of());
            client.post(new SendRequest().tag(1).gather(out.slice(0, 4000)));
            WorkCompletion received = server.completions().take(10, TimeUnit.SECONDS);
            assertEquals(CompletionStatus.SUCCESS, received.status(), received.detail());
            assertEquals(4000, received.byteLength());
            byte[] got = new byte[4000];
            a.buffer().get(0, got, 0, 1000);
            b.buffer().get(0, got, 1000, 3000);
            assertArrayEquals(data, got);
        }
    }

    @Test
    @DisplayName("RFC 5040 5.3.1: a Send with Invalidate invalidates the receiver's STag; its later use fails")
    void sendWithInvalidate() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection client = pair.clientVerbs();
            IwarpConnection server = pair.serverVerbs();
            MemoryRegion advertised = server.register(ByteBuffer.allocateDirect(4096), REMOTE_RW);
            MemoryRegion inbox = server.register(ByteBuffer.allocateDirect(64), EnumSet.of(Access.LOCAL_WRITE));
            server.post(new ReceiveRequest().tag(1).scatter(inbox.slice(0, 64)));
            client.post(new SendRequest().tag(1).invalidate(advertised.stag()));
            WorkCompletion received = server.completions().take(10, TimeUnit.SECONDS);
            assertEquals(CompletionStatus.SUCCESS, received.status(), received.detail());
            assertEquals(advertised.stag(), received.invalidatedStag());
            assertFalse(advertised.isValid());
        }
    }

    @Test
    @DisplayName("Posting checks local slices: an invalid region completes with LOCAL_PROTECTION_ERROR")
    void localProtectionErrors() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection client = pair.clientVerbs();
            IwarpConnection server = pair.serverVerbs();
            MemoryRegion readOnly = client.register(ByteBuffer.allocateDirect(64), Set.of());
            WorkCompletion receive = client.submit(new ReceiveRequest().tag(1).scatter(readOnly.slice(0, 64)))
                    .get(10, TimeUnit.SECONDS);
            assertEquals(CompletionStatus.LOCAL_PROTECTION_ERROR, receive.status());
            assertTrue(receive.detail().contains("LOCAL_WRITE"), receive.detail());

            MemoryRegion gone = client.register(ByteBuffer.allocateDirect(64), Set.of());
            gone.close();
            MemoryRegion peer = server.register(ByteBuffer.allocateDirect(64), REMOTE_RW);
            WorkCompletion write = client.submit(new WriteRequest().tag(2).gather(gone.slice(0, 64))
                    .target(peer.remote())).get(10, TimeUnit.SECONDS);
            assertEquals(CompletionStatus.LOCAL_PROTECTION_ERROR, write.status());

            // The connection carries on.
            MemoryRegion fine = client.register(ByteBuffer.allocateDirect(64), Set.of());
            WorkCompletion ok = client.submit(new WriteRequest().tag(3).gather(fine.slice(0, 64))
                    .target(peer.remote())).get(10, TimeUnit.SECONDS);
            assertEquals(CompletionStatus.SUCCESS, ok.status(), ok.detail());
        }
    }

    @Test
    void requestsAreCheckedBeforePosting() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection client = pair.clientVerbs();
            MemoryRegion region = client.register(ByteBuffer.allocateDirect(64), EnumSet.of(Access.LOCAL_WRITE));
            assertThrows(IllegalArgumentException.class, () -> client.post(new WriteRequest().gather(region.slice(0, 8))));
            assertThrows(IllegalArgumentException.class, () -> client.post(new ReadRequest().sink(region.slice(0, 8))));
            assertThrows(IllegalArgumentException.class, () -> client.post(new WriteRequest()
                    .gather(region.slice(0, 64)).target(new RemoteBuffer(5, 0, 10))));
        }
    }

    @Test
    @DisplayName("With the socket's streams on, Sends and Receives belong to them")
    void streamsOwnSendsAndReceives() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open()) {
            IwarpConnection client = pair.clientVerbs();
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> client.post(new SendRequest().tag(1)));
            assertTrue(e.getMessage().contains("STREAMS"), e.getMessage());
            // RDMA Write and Read stay available.
            IwarpConnection server = pair.serverVerbs();
            MemoryRegion target = server.register(ByteBuffer.allocateDirect(16), REMOTE_RW);
            MemoryRegion source = client.register(ByteBuffer.allocateDirect(16), Set.of());
            assertEquals(CompletionStatus.SUCCESS, client.submit(new WriteRequest().gather(source.slice(0, 16))
                    .target(target.remote())).get(10, TimeUnit.SECONDS).status());
        }
    }

    @Test
    @DisplayName("Posting stops at the completion queue's capacity until completions are polled")
    void completionQueueCapacityIsEnforcedAtPosting() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection client = pair.clientVerbs();
            MemoryRegion target = pair.serverVerbs().register(ByteBuffer.allocateDirect(8), REMOTE_RW);
            MemoryRegion source = client.register(ByteBuffer.allocateDirect(8), Set.of());
            WriteRequest write = new WriteRequest().gather(source.slice(0, 8)).target(target.remote());
            int posted = 0;
            IllegalStateException full = null;
            while (full == null && posted < 10_000) {
                try {
                    client.post(write.tag(posted));
                    posted++;
                } catch (IllegalStateException e) {
                    full = e;
                }
            }
            assertNotNull(full, "posting must stop before the queue can overflow");
            assertTrue(full.getMessage().contains("poll"), full.getMessage());
            // Everything posted completes, exactly once, and after polling there is room again.
            for (int i = 0; i < posted; i++) {
                WorkCompletion done = client.completions().take(20, TimeUnit.SECONDS);
                assertNotNull(done, "completion " + i);
                assertEquals(i, done.tag());
            }
            client.post(write.tag(-1));
            assertEquals(-1, client.completions().take(20, TimeUnit.SECONDS).tag());
        }
    }

    private static byte[] random(int size, long seed) {
        byte[] data = new byte[size];
        new SplittableRandom(seed).nextBytes(data);
        return data;
    }
}
