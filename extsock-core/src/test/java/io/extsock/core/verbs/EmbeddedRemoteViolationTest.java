package io.extsock.core.verbs;

import static io.extsock.core.verbs.TerminateAssertions.D;
import static io.extsock.core.verbs.TerminateAssertions.M;
import static io.extsock.core.verbs.TerminateAssertions.assertEnded;
import static io.extsock.core.verbs.TerminateAssertions.assertReadRefused;
import static io.extsock.core.verbs.TerminateAssertions.assertTerminate;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every remote violation the queue pair catches, without a socket ({@link EmbeddedPair}: the
 * octets cross in chunks of 1 to 7 octets, from each seed): the Terminate on the wire, octet for
 * octet in its control word (RFC 5040 section 4.8: layer and type, code, the M/D/R flags), the
 * violator's request failing with the status that names the cause, the victim's flushed, both
 * ends ended. The loopback {@code e2e.RemoteViolationTest} keeps one case per behaviour over
 * real sockets.
 */
class EmbeddedRemoteViolationTest {

    private static final int MAX_CHUNK = 7;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("RFC 5040 7.2: RDMA Read of an invalid STag: RDMAP remote protection 0x01/0x00, the Read Request copied")
    void readOfAnInvalidStag(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, MAX_CHUNK);
        IwarpConnection client = pair.initiator().verbs();
        MemoryRegion sink = client.register(ByteBuffer.allocateDirect(64), EnumSet.of(Access.LOCAL_WRITE));
        WorkCompletion read = client.submit(new ReadRequest().source(new RemoteBuffer(0x12345678, 0, 64))
                .sink(sink.slice(0, 64))).get(1, TimeUnit.SECONDS);
        byte[] terminate = assertReadRefused(pair, read, 0x01, 0x00);  // RDMAP, remote protection, invalid STag
        // The copied Read Request header (RFC 5040 4.4) ends the Terminate: its source STag at octet 16.
        byte[] copied = Arrays.copyOfRange(terminate, terminate.length - 28, terminate.length);
        assertArrayEquals(new byte[] {0x12, 0x34, 0x56, 0x78}, Arrays.copyOfRange(copied, 16, 20));
        assertArrayEquals(new byte[] {0, 0, 0, 64}, Arrays.copyOfRange(copied, 12, 16), "the Read's size");
        assertEnded(pair);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("RFC 5040 7.2: RDMA Read beyond the region: RDMAP remote protection, base or bounds 0x01/0x01")
    void readBeyondBounds(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, MAX_CHUNK);
        IwarpConnection client = pair.initiator().verbs();
        MemoryRegion exposed = pair.responder().verbs().register(ByteBuffer.allocateDirect(100),
                EnumSet.of(Access.REMOTE_READ));
        MemoryRegion sink = client.register(ByteBuffer.allocateDirect(200), EnumSet.of(Access.LOCAL_WRITE));
        WorkCompletion read = client.submit(new ReadRequest().source(new RemoteBuffer(exposed.stag(), 50, 100))
                .sink(sink.slice(0, 100))).get(1, TimeUnit.SECONDS);
        assertReadRefused(pair, read, 0x01, 0x01);  // base or bounds
        assertEnded(pair);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("RFC 5040 7.2: RDMA Read without the remote-read right: RDMAP remote protection, access rights 0x01/0x02")
    void readWithoutTheRight(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, MAX_CHUNK);
        IwarpConnection client = pair.initiator().verbs();
        MemoryRegion writeOnly = pair.responder().verbs().register(ByteBuffer.allocateDirect(100),
                EnumSet.of(Access.REMOTE_WRITE));
        MemoryRegion sink = client.register(ByteBuffer.allocateDirect(100), EnumSet.of(Access.LOCAL_WRITE));
        WorkCompletion read = client.submit(new ReadRequest().source(writeOnly.remote()).sink(sink.slice(0, 100)))
                .get(1, TimeUnit.SECONDS);
        assertReadRefused(pair, read, 0x01, 0x02);  // access rights
        assertEnded(pair);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("RFC 5041 7.2: RDMA Write without the remote-write right: DDP tagged, invalid STag 0x11/0x00, nothing placed")
    void writeWithoutTheRight(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, MAX_CHUNK);
        IwarpConnection client = pair.initiator().verbs();
        MemoryRegion readOnly = pair.responder().verbs().register(ByteBuffer.allocateDirect(100),
                EnumSet.of(Access.REMOTE_READ));
        MemoryRegion source = client.register(ByteBuffer.allocateDirect(100), Set.of());
        source.buffer().put(0, (byte) 0x5A);
        client.post(new WriteRequest().gather(source.slice(0, 100)).target(readOnly.remote()));
        pair.pump();
        assertTerminate(pair.responder().terminateWritten(), 0x11, 0x00, M | D);
        assertEquals(0, readOnly.buffer().get(0), "nothing was placed");
        assertEnded(pair);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("RFC 5041 7.2: a Send with no Receive posted: DDP untagged, no buffer available 0x12/0x02")
    void sendWithNoReceivePosted(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, MAX_CHUNK);
        IwarpConnection server = pair.responder().verbs();
        MemoryRegion inbox = server.register(ByteBuffer.allocateDirect(64), EnumSet.of(Access.LOCAL_WRITE));
        pair.initiator().verbs().post(new SendRequest().tag(1));
        pair.pump();
        assertTerminate(pair.responder().terminateWritten(), 0x12, 0x02, M | D);
        assertEnded(pair);
        assertThrows(IOException.class, () -> server.post(new ReceiveRequest().scatter(inbox.slice(0, 64))));
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("RFC 5041 7.2: a Send longer than the Receive: DDP untagged, too long 0x12/0x05; LOCAL_LENGTH_ERROR, then FLUSHED")
    void sendLongerThanTheReceive(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, MAX_CHUNK);
        IwarpConnection server = pair.responder().verbs();
        MemoryRegion inbox = server.register(ByteBuffer.allocateDirect(100), EnumSet.of(Access.LOCAL_WRITE));
        server.post(new ReceiveRequest().tag(5).scatter(inbox.slice(0, 100)));
        server.post(new ReceiveRequest().tag(6).scatter(inbox.slice(0, 100)));
        MemoryRegion big = pair.initiator().verbs().register(ByteBuffer.allocateDirect(5000), Set.of());
        pair.initiator().verbs().post(new SendRequest().tag(1).gather(big.slice(0, 5000)));
        WorkCompletion tooLong = server.completions().take(1, TimeUnit.SECONDS);
        assertNotNull(tooLong);
        assertEquals(5, tooLong.tag());
        assertEquals(CompletionStatus.LOCAL_LENGTH_ERROR, tooLong.status());
        assertEquals(CompletionCause.terminateSent(1, 2, 0x05), tooLong.cause(), "DDP untagged, too long");
        WorkCompletion flushed = server.completions().take(1, TimeUnit.SECONDS);
        assertEquals(6, flushed.tag());
        assertEquals(CompletionStatus.FLUSHED, flushed.status());
        assertEquals(CompletionCause.terminateSent(1, 2, 0x05), flushed.cause());
        assertTerminate(pair.responder().terminateWritten(), 0x12, 0x05, M | D);
        assertEnded(pair);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("RFC 5042: a deregistered region's STag is dead: a Read of it is an invalid STag 0x01/0x00")
    void deregisteredRegion(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, MAX_CHUNK);
        MemoryRegion exposed = pair.responder().verbs().register(ByteBuffer.allocateDirect(100),
                EnumSet.of(Access.REMOTE_READ, Access.REMOTE_WRITE));
        RemoteBuffer stale = exposed.remote();
        exposed.close();
        IwarpConnection client = pair.initiator().verbs();
        MemoryRegion sink = client.register(ByteBuffer.allocateDirect(100), EnumSet.of(Access.LOCAL_WRITE));
        WorkCompletion read = client.submit(new ReadRequest().source(stale).sink(sink.slice(0, 100)))
                .get(1, TimeUnit.SECONDS);
        assertReadRefused(pair, read, 0x01, 0x00);
        assertEnded(pair);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("RFC 5040 5.3: after a Send with Invalidate the STag is dead: a Read of it is an invalid STag 0x01/0x00")
    void invalidatedStag(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, MAX_CHUNK);
        IwarpConnection client = pair.initiator().verbs();
        IwarpConnection server = pair.responder().verbs();
        MemoryRegion exposed = server.register(ByteBuffer.allocateDirect(100),
                EnumSet.of(Access.REMOTE_READ, Access.REMOTE_WRITE));
        RemoteBuffer advertised = exposed.remote();
        MemoryRegion inbox = server.register(ByteBuffer.allocateDirect(8), EnumSet.of(Access.LOCAL_WRITE));
        server.post(new ReceiveRequest().scatter(inbox.slice(0, 8)));
        client.post(new SendRequest().tag(1).invalidate(exposed.stag()));
        WorkCompletion received = server.completions().take(1, TimeUnit.SECONDS);
        assertEquals(CompletionStatus.SUCCESS, received.status());
        assertEquals(exposed.stag(), received.invalidatedStag());
        MemoryRegion sink = client.register(ByteBuffer.allocateDirect(100), EnumSet.of(Access.LOCAL_WRITE));
        WorkCompletion read = client.submit(new ReadRequest().source(advertised).sink(sink.slice(0, 100)))
                .get(1, TimeUnit.SECONDS);
        assertReadRefused(pair, read, 0x01, 0x00);
        assertEnded(pair);
    }
}
