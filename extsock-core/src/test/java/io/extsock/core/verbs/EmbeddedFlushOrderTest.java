package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WriteRequest;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * When a connection ends, every outstanding request completes exactly once, in order (RFC 5040
 * section 5.4; send-queue completions in posting order, RFC 5040 section 5.3): on a Terminate,
 * what went out before it succeeded, the Receive being filled fails, the rest flush; on close,
 * everything flushes. Without a socket ({@link EmbeddedPair}).
 */
class EmbeddedFlushOrderTest {

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("Terminate for a too-long Send: the Receive LOCAL_LENGTH_ERROR, the others FLUSHED in order; the sender's"
            + " requests complete in posting order")
    void flushOrderOnTerminate(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, 97);
        IwarpConnection client = pair.initiator().verbs();
        IwarpConnection server = pair.responder().verbs();
        MemoryRegion inbox = server.register(ByteBuffer.allocateDirect(500), EnumSet.of(Access.LOCAL_WRITE));
        MemoryRegion target = server.register(ByteBuffer.allocateDirect(100),
                EnumSet.of(Access.REMOTE_WRITE, Access.REMOTE_READ));
        for (int i = 0; i < 5; i++) {
            server.post(new ReceiveRequest().tag(10 + i).scatter(inbox.slice(i * 100L, 100)));
        }
        MemoryRegion big = client.register(ByteBuffer.allocateDirect(5000), EnumSet.of(Access.LOCAL_WRITE));
        client.post(new SendRequest().tag(1).gather(big.slice(0, 5000)));        // too long: the violation
        client.post(new WriteRequest().tag(2).gather(big.slice(0, 100)).target(target.remote()));
        client.post(new ReadRequest().tag(3).source(target.remote()).sink(big.slice(0, 100)));
        client.post(new SendRequest().tag(4).gather(big.slice(0, 10)));
        pair.pump();

        WorkCompletion tooLong = server.completions().take(1, TimeUnit.SECONDS);
        assertEquals(10, tooLong.tag());
        assertEquals(CompletionStatus.LOCAL_LENGTH_ERROR, tooLong.status());
        CompletionCause sent = CompletionCause.terminateSent(1, 2, 0x05);
        assertEquals(sent, tooLong.cause());
        for (int i = 1; i < 5; i++) {
            WorkCompletion flushed = server.completions().take(1, TimeUnit.SECONDS);
            assertEquals(10 + i, flushed.tag());
            assertEquals(CompletionStatus.FLUSHED, flushed.status());
            assertEquals(sent, flushed.cause());
        }
        assertNull(server.completions().take(0, TimeUnit.SECONDS), "each completes once");

        // All four left in one gathering write before the Terminate came back: the Sends and the
        // Write went out (SUCCESS); the Read's response never came (FLUSHED); order as posted.
        CompletionStatus[] expected = {CompletionStatus.SUCCESS, CompletionStatus.SUCCESS, CompletionStatus.FLUSHED,
            CompletionStatus.SUCCESS};
        for (int i = 0; i < 4; i++) {
            WorkCompletion done = client.completions().take(1, TimeUnit.SECONDS);
            assertNotNull(done, "request " + (i + 1));
            assertEquals(i + 1, done.tag());
            assertEquals(expected[i], done.status(), done.toString());
            assertEquals(expected[i] == CompletionStatus.SUCCESS ? CompletionCause.NONE
                    : CompletionCause.terminateReceived(1, 2, 0x05), done.cause(), done.toString());
        }
        assertNull(client.completions().take(0, TimeUnit.SECONDS), "each completes once");
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("Close: send-queue requests FLUSHED in posting order, then the Receives in posting order, each once")
    void flushOrderOnClose(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, 97);
        IwarpConnection client = pair.initiator().verbs();
        MemoryRegion local = client.register(ByteBuffer.allocateDirect(1000), EnumSet.of(Access.LOCAL_WRITE));
        MemoryRegion exposed = pair.responder().verbs().register(ByteBuffer.allocateDirect(100),
                EnumSet.of(Access.REMOTE_READ));
        for (int i = 0; i < 5; i++) {
            client.post(new ReceiveRequest().tag(100 + i).scatter(local.slice(i * 100L, 100)));
        }
        client.post(new ReadRequest().tag(1).source(exposed.remote()).sink(local.slice(500, 100)));
        client.post(new SendRequest().tag(2).gather(local.slice(600, 100)));
        client.post(new ReadRequest().tag(3).source(exposed.remote()).sink(local.slice(700, 100)));
        pair.initiator().queuePair.close();  // before anything went out: all of it is flushed

        long[] order = {1, 2, 3, 100, 101, 102, 103, 104};
        for (long tag : order) {
            WorkCompletion done = client.completions().take(1, TimeUnit.SECONDS);
            assertNotNull(done, "tag " + tag);
            assertEquals(tag, done.tag());
            assertEquals(CompletionStatus.FLUSHED, done.status(), done.toString());
            assertEquals(CompletionCause.CLOSED, done.cause());
            assertTrue(done.detail().contains("closed"), done.detail());
        }
        assertNull(client.completions().take(0, TimeUnit.SECONDS), "each completes once");
        assertEquals(Set.of(), Set.copyOf(pair.initiator().opcodesWritten().subList(1, pair.initiator()
                .opcodesWritten().size())), "nothing but the RTR went out");
    }
}
