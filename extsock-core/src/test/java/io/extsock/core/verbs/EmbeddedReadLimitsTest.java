package io.extsock.core.verbs;

import static io.extsock.core.verbs.TerminateAssertions.assertTerminate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.WorkCompletion;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * RFC 5040 section 5.2 (and RFC 6581's negotiated IRD/ORD): a side has at most ORD Reads
 * outstanding and serves at most IRD; a peer beyond our IRD is terminated; a Read Response
 * whose source was deregistered after the request arrived is refused, not sent. Without a
 * socket ({@link EmbeddedPair}).
 */
class EmbeddedReadLimitsTest {

    private static final int READ_REQUEST = 0x1;
    private static final int READ_RESPONSE = 0x2;
    private static final int TERMINATE = 0x7;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("ORD 2: five Reads posted, two Read Requests on the wire until responses return; all five complete in order")
    void ordHoldsBackReads(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(EmbeddedPair.Terms.defaults().withReadLimits(2, 2), seed, 64);
        IwarpConnection client = pair.initiator().verbs();
        ByteBuffer exposedBuffer = ByteBuffer.allocateDirect(500);
        for (int i = 0; i < 500; i++) {
            exposedBuffer.put(i, (byte) i);
        }
        MemoryRegion exposed = pair.responder().verbs().register(exposedBuffer, EnumSet.of(Access.REMOTE_READ));
        MemoryRegion sink = client.register(ByteBuffer.allocateDirect(500), EnumSet.of(Access.LOCAL_WRITE));
        for (int i = 0; i < 5; i++) {
            client.post(new ReadRequest().tag(i).source(new RemoteBuffer(exposed.stag(), i * 100L, 100))
                    .sink(sink.slice(i * 100L, 100)));
        }
        pair.carry(pair.initiator());
        assertEquals(2, Collections.frequency(pair.initiator().opcodesWritten(), READ_REQUEST), "ORD 2 on the wire");
        assertEquals(2, pair.initiator().queuePair.queues.readsOutstanding());
        for (int i = 0; i < 5; i++) {
            WorkCompletion read = client.completions().take(1, TimeUnit.SECONDS);
            assertEquals(i, read.tag());
            assertEquals(CompletionStatus.SUCCESS, read.status(), read.toString());
            assertEquals(CompletionCause.NONE, read.cause());
        }
        assertEquals(5, Collections.frequency(pair.initiator().opcodesWritten(), READ_REQUEST));
        assertEquals(5, Collections.frequency(pair.responder().opcodesWritten(), READ_RESPONSE));
        for (int i = 0; i < 500; i++) {
            assertEquals((byte) i, sink.buffer().get(i), "octet " + i);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("IRD 1 exceeded: the second Read Request finds no buffer on queue 1: DDP untagged 0x12/0x02; the Reads flush")
    void irdExceededIsTerminated(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(EmbeddedPair.Terms.defaults().withResponderIrd(1), seed, 64);
        IwarpConnection client = pair.initiator().verbs();
        MemoryRegion exposed = pair.responder().verbs().register(ByteBuffer.allocateDirect(300),
                EnumSet.of(Access.REMOTE_READ));
        MemoryRegion sink = client.register(ByteBuffer.allocateDirect(300), EnumSet.of(Access.LOCAL_WRITE));
        for (int i = 0; i < 3; i++) {
            client.post(new ReadRequest().tag(i).source(new RemoteBuffer(exposed.stag(), i * 100L, 100))
                    .sink(sink.slice(i * 100L, 100)));
        }
        pair.pump();
        // All three requests arrive before the server transmits: the second exceeds IRD 1, and
        // the Terminate goes before any response.
        assertEquals(java.util.List.of(TERMINATE), pair.responder().opcodesWritten());
        byte[] terminate = pair.responder().terminateWritten();
        assertTerminate(terminate, 0x12, 0x02, 0xC0);
        // The terminated DDP header (after the 2-octet segment length) names queue 1, MSN 2.
        assertEquals(1, terminate[4 + 2 + 9] & 0xFF, "queue number: Read Requests");
        assertEquals(2, terminate[4 + 2 + 13] & 0xFF, "MSN: the second Read Request");
        for (int i = 0; i < 3; i++) {
            WorkCompletion read = client.completions().take(1, TimeUnit.SECONDS);
            assertEquals(i, read.tag());
            assertEquals(CompletionStatus.FLUSHED, read.status(), read.toString());
            assertEquals(CompletionCause.terminateReceived(1, 2, 0x02), read.cause(), "DDP untagged, no buffer");
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("RFC 5042: a region deregistered between the Read Request and its response: invalid STag 0x01/0x00, no response")
    void deregisteredBeforeTheResponse(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, 64);
        IwarpConnection client = pair.initiator().verbs();
        MemoryRegion exposed = pair.responder().verbs().register(ByteBuffer.allocateDirect(100),
                EnumSet.of(Access.REMOTE_READ));
        MemoryRegion sink = client.register(ByteBuffer.allocateDirect(100), EnumSet.of(Access.LOCAL_WRITE));
        client.post(new ReadRequest().tag(7).source(exposed.remote()).sink(sink.slice(0, 100)));
        pair.carry(pair.initiator());  // the request is accepted and its response queued, not yet framed
        assertEquals(1, pair.responder().queuePair.queues.responsesWaiting());
        exposed.close();
        pair.pump();
        assertTerminate(pair.responder().terminateWritten(), 0x01, 0x00, 0x00);
        assertEquals(0, Collections.frequency(pair.responder().opcodesWritten(), READ_RESPONSE));
        WorkCompletion read = client.completions().take(1, TimeUnit.SECONDS);
        assertEquals(7, read.tag());
        assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, read.status(), read.toString());
        assertEquals(CompletionCause.terminateReceived(0, 1, 0x00), read.cause(), "invalid STag");
        assertNull(pair.initiator().terminateWritten());
    }
}
