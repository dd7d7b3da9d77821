package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WriteRequest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A peer that reaches for memory it was not given, or sends what nobody can receive, is
 * terminated (RFC 5040 section 7): the right Terminate goes on the wire, the violator's
 * requests complete with errors that name the cause, the victim's are flushed, and both ends
 * close. Nothing is placed where it must not be.
 *
 * <p>Over loopback sockets, one case per behaviour (a Read refused, a Write refused, a Send too
 * long, a Send with Invalidate, a flush on close): this proves the wiring. Every cause with its
 * Terminate octets, without a socket: {@code verbs.EmbeddedRemoteViolationTest}.
 */
@Timeout(60)
class RemoteViolationTest {

    private static final Set<Access> REMOTE_RW = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE);

    @Test
    @DisplayName("RFC 5040 7.2: RDMA Read of an invalid STag: RDMAP remote protection, invalid STag")
    void readOfAnInvalidStag() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection client = pair.clientVerbs();
            MemoryRegion sink = client.register(ByteBuffer.allocateDirect(64), EnumSet.of(Access.LOCAL_WRITE));
            WorkCompletion read = client.submit(new ReadRequest().source(new RemoteBuffer(0x12345678, 0, 64))
                    .sink(sink.slice(0, 64))).get(20, TimeUnit.SECONDS);
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, read.status());
            // RFC 5040 4.8: layer RDMAP (0), remote protection error (1), invalid STag (0x00).
            assertEquals(CompletionCause.terminateReceived(0, 1, 0x00), read.cause(), read.toString());
            assertNotNull(read.detail());
            assertConnectionEnded(client);
            assertConnectionEnded(pair.serverVerbs());
        }
    }

    @Test
    @DisplayName("RFC 5040 7.1: the Terminate still goes out when the application closes the moment its connection ends")
    void terminateOutlivesAnImmediateClose() throws Exception {
        for (int round = 0; round < 40; round++) {
            try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
                IwarpConnection client = pair.clientVerbs();
                IwarpConnection server = pair.serverVerbs();
                Thread closer = new Thread(() -> closeOnceEnded(pair, server), "closes-when-ended");
                closer.start();
                MemoryRegion sink = client.register(ByteBuffer.allocateDirect(64), EnumSet.of(Access.LOCAL_WRITE));
                WorkCompletion read = client.submit(new ReadRequest().source(new RemoteBuffer(0x12345678, 0, 64))
                        .sink(sink.slice(0, 64))).get(20, TimeUnit.SECONDS);
                closer.join(20_000);
                assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, read.status(), "round " + round + ": " + read);
                assertEquals(CompletionCause.terminateReceived(0, 1, 0x00), read.cause(), read.toString());
            }
        }
    }

    /** Closes the socket as soon as a call fails because the connection ended: no pause at all. */
    private static void closeOnceEnded(IwarpSocketPair pair, IwarpConnection server) {
        ByteBuffer probe = ByteBuffer.allocateDirect(8);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            try {
                server.register(probe, Set.of()).close();
            } catch (IOException ended) {
                try {
                    pair.accepted().close();
                } catch (IOException ignored) {
                    // the test asserts on the peer's side
                }
                return;
            }
        }
    }

    @Test
    @DisplayName("RFC 5041 7.2: RDMA Write to a region without the remote-write right is refused, nothing placed")
    void writeWithoutTheRight() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection client = pair.clientVerbs();
            IwarpConnection server = pair.serverVerbs();
            MemoryRegion readOnly = server.register(ByteBuffer.allocateDirect(100), EnumSet.of(Access.REMOTE_READ));
            // The application hands the peer a descriptor; the peer forges write access with it.
            RemoteBuffer forged = readOnly.remote();
            MemoryRegion source = client.register(ByteBuffer.allocateDirect(100).put(new byte[100]), Set.of());
            source.buffer().put(0, (byte) 0x5A);
            client.post(new WriteRequest().gather(source.slice(0, 100)).target(forged));
            assertConnectionEndsWith(client, "invalid STag");
            assertEquals(0, readOnly.buffer().get(0), "nothing was placed");
        }
    }

    @Test
    @DisplayName("RFC 5041 7.2: a Send longer than the Receive: too long for the buffer, LOCAL_LENGTH_ERROR there")
    void sendLongerThanTheReceive() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection client = pair.clientVerbs();
            IwarpConnection server = pair.serverVerbs();
            MemoryRegion inbox = server.register(ByteBuffer.allocateDirect(100), EnumSet.of(Access.LOCAL_WRITE));
            server.post(new ReceiveRequest().tag(5).scatter(inbox.slice(0, 100)));
            server.post(new ReceiveRequest().tag(6).scatter(inbox.slice(0, 100)));
            MemoryRegion big = client.register(ByteBuffer.allocateDirect(5000), Set.of());
            client.post(new SendRequest().tag(1).gather(big.slice(0, 5000)));
            WorkCompletion tooLong = server.completions().take(20, TimeUnit.SECONDS);
            assertNotNull(tooLong);
            assertEquals(5, tooLong.tag());
            assertEquals(CompletionStatus.LOCAL_LENGTH_ERROR, tooLong.status());
            assertEquals(CompletionCause.terminateSent(1, 2, 0x05), tooLong.cause(), "DDP untagged, too long");
            WorkCompletion flushed = server.completions().take(20, TimeUnit.SECONDS);
            assertEquals(6, flushed.tag());
            assertEquals(CompletionStatus.FLUSHED, flushed.status());
            assertConnectionEndsWith(client, "too long");
        }
    }

    @Test
    @DisplayName("RFC 5040 5.3.1: after a Send with Invalidate, the invalidated STag is dead too")
    void invalidatedStag() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection client = pair.clientVerbs();
            IwarpConnection server = pair.serverVerbs();
            MemoryRegion exposed = server.register(ByteBuffer.allocateDirect(100), REMOTE_RW);
            RemoteBuffer advertised = exposed.remote();
            MemoryRegion inbox = server.register(ByteBuffer.allocateDirect(8), EnumSet.of(Access.LOCAL_WRITE));
            server.post(new ReceiveRequest().scatter(inbox.slice(0, 8)));
            client.post(new SendRequest().tag(1).invalidate(exposed.stag()));
            assertEquals(CompletionStatus.SUCCESS, server.completions().take(20, TimeUnit.SECONDS).status());
            MemoryRegion sink = client.register(ByteBuffer.allocateDirect(100), EnumSet.of(Access.LOCAL_WRITE));
            WorkCompletion read = client.submit(new ReadRequest().source(advertised)
                    .sink(sink.slice(0, 100))).get(20, TimeUnit.SECONDS);
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, read.status());
        }
    }

    @Test
    @DisplayName("Work outstanding when a connection ends completes as FLUSHED, exactly once")
    void outstandingWorkIsFlushed() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection server = pair.serverVerbs();
            MemoryRegion inbox = server.register(ByteBuffer.allocateDirect(64 * 10), EnumSet.of(Access.LOCAL_WRITE));
            for (int i = 0; i < 10; i++) {
                server.post(new ReceiveRequest().tag(i).scatter(inbox.slice(i * 64L, 64)));
            }
            pair.client().close();
            for (int i = 0; i < 10; i++) {
                WorkCompletion flushed = server.completions().take(20, TimeUnit.SECONDS);
                assertNotNull(flushed, "receive " + i + " must complete");
                assertEquals(i, flushed.tag());
                assertEquals(CompletionStatus.FLUSHED, flushed.status());
                assertEquals(CompletionCause.CONNECTION_LOST, flushed.cause(), "the peer closed TCP");
            }
            // Closing ends the queue pair a second way, on this thread and under the lock the
            // flush held: by the time it returns, any second completion of a receive is queued.
            pair.accepted().close();
            assertEquals(null, server.completions().take(0, TimeUnit.MILLISECONDS), "each completes once");
        }
    }

    /** Waits until posting fails because the connection ended, with the cause in the message. */
    private static void assertConnectionEndsWith(IwarpConnection connection, String cause) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            String ended;
            try {
                MemoryRegion probe = connection.register(ByteBuffer.allocateDirect(8), EnumSet.of(Access.LOCAL_WRITE));
                connection.submit(new WriteRequest().gather(probe.slice(0, 0)).target(new RemoteBuffer(1, 0, 0)))
                        .get(5, TimeUnit.SECONDS);
                ended = null;
            } catch (java.util.concurrent.ExecutionException e) {
                ended = e.getCause().getMessage();
            } catch (IOException e) {
                ended = e.getMessage();
            }
            if (ended != null) {
                assertTrue(ended.toLowerCase().contains(cause.toLowerCase()), ended);
                return;
            }
            Thread.sleep(10);  // a polling interval
        }
        throw new AssertionError("the connection did not end with " + cause);
    }

    private static void assertConnectionEnded(IwarpConnection connection) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            try {
                connection.register(ByteBuffer.allocateDirect(8), Set.of());
            } catch (IOException e) {
                return;
            }
            Thread.sleep(10);  // a polling interval
        }
        throw new AssertionError("the connection did not end");
    }
}
