package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WriteRequest;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A peer's Send with Invalidate (RFC 5040 section 5.3) reaches only what was granted to that
 * peer: a region of this connection with a remote right. Each connection has its own registry
 * (its protection domain), so another connection's region is not even named by the STag here;
 * a local-only region of this connection was never advertised. Either way the receiver refuses
 * with RDMAP Remote Protection Error "STag cannot be Invalidated" (layer 0, type 1, code 0x09,
 * RFC 5040 section 4.8; Linux siw answers so for an STag outside the queue pair's protection
 * domain) and the region stays valid.
 */
class SendWithInvalidateScopeTest {

    private static final int MAX_CHUNK = 7;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("the STag of a region on another connection cannot be invalidated through this one")
    void regionOfAnotherConnection(long seed) throws Exception {
        EmbeddedPair attacked = EmbeddedPair.open(seed, MAX_CHUNK);
        EmbeddedPair other = EmbeddedPair.open(seed + 100, MAX_CHUNK);
        IwarpConnection otherServer = other.responder().verbs();
        MemoryRegion granted = otherServer.register(ByteBuffer.allocateDirect(64),
                EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE));

        WorkCompletion received = sendWithInvalidate(attacked, granted.stag());

        assertRefused(attacked, received);
        assertTrue(granted.isValid(), "the other connection's region is untouched");
        assertSame(granted, other.responder().registry.lookup(granted.stag()));
        // And it still works for the peer it was granted to.
        IwarpConnection otherClient = other.initiator().verbs();
        MemoryRegion source = otherClient.register(ByteBuffer.allocateDirect(8), EnumSet.noneOf(Access.class));
        WorkCompletion write = otherClient.submit(new WriteRequest().gather(source.slice(0, 8))
                .target(granted.remote(0, 8))).get(1, TimeUnit.SECONDS);
        assertEquals(CompletionStatus.SUCCESS, write.status(), write.detail());
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("a region of this connection without remote rights cannot be invalidated by the peer")
    void localOnlyRegionOfThisConnection(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, MAX_CHUNK);
        MemoryRegion localOnly = pair.responder().verbs().register(ByteBuffer.allocateDirect(64),
                EnumSet.of(Access.LOCAL_WRITE));

        WorkCompletion received = sendWithInvalidate(pair, localOnly.stag());

        assertRefused(pair, received);
        // The refusal ends the connection, which deregisters every region of it: the region's
        // own state after a refusal is MemoryRegistryTest's to check.
    }

    /** The initiator sends a Send with Invalidate of {@code stag}; the responder's Receive completion. */
    private static WorkCompletion sendWithInvalidate(EmbeddedPair pair, int stag) throws Exception {
        IwarpConnection server = pair.responder().verbs();
        MemoryRegion inbox = server.register(ByteBuffer.allocateDirect(8), EnumSet.of(Access.LOCAL_WRITE));
        server.post(new ReceiveRequest().tag(7).scatter(inbox.slice(0, 8)));
        pair.initiator().verbs().post(new SendRequest().tag(1).invalidate(stag));
        pair.pump();
        return server.completions().take(1, TimeUnit.SECONDS);
    }

    private static void assertRefused(EmbeddedPair pair, WorkCompletion received) {
        assertEquals(7, received.tag());
        assertEquals(0, received.invalidatedStag(), "nothing reported as invalidated");
        assertEquals(CompletionStatus.REMOTE_OPERATION_ERROR, received.status(), received.detail());
        assertEquals(CompletionCause.terminateSent(0, 1, 0x09), received.cause(), "RDMAP, remote protection,"
                + " STag cannot be invalidated");
        byte[] terminate = pair.responder().terminateWritten();
        assertEquals(0x01, terminate[0] & 0xFF, "layer RDMAP, type remote protection");
        assertEquals(0x09, terminate[1] & 0xFF, "STag cannot be invalidated");
        TerminateAssertions.assertEnded(pair);
    }
}
