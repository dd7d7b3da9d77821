package io.extsock.core.verbs;

import static io.extsock.core.verbs.EmbeddedUnexpectedMessageTest.postReceive;
import static io.extsock.core.verbs.RawSegments.SEND;
import static io.extsock.core.verbs.RawSegments.fpdu;
import static io.extsock.core.verbs.RawSegments.untagged;
import static io.extsock.core.verbs.TerminateAssertions.D;
import static io.extsock.core.verbs.TerminateAssertions.M;
import static io.extsock.core.verbs.TerminateAssertions.assertTerminate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.rdmap.RdmapOpcode;
import io.extsock.core.rdmap.RdmapSegmentHeader;
import io.extsock.testkit.logging.RecordedLogs;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A fault of our own in the receive path (an unchecked exception out of a handler, planted
 * through {@link ReceiveSide#replaceHandler}) never escapes it: it becomes a Terminate, RDMAP
 * local catastrophic error (RFC 5040 section 7: layer 0, type 0), an ERROR log line carrying
 * the exception, and every request of both ends completes with an error. Also the flush that
 * lands while a segment is being placed (the application closes mid-message).
 */
class EmbeddedReceiveFailureTest {

    private static final CompletionCause SENT = CompletionCause.terminateSent(0, 0, 0);
    private static final CompletionCause RECEIVED = CompletionCause.terminateReceived(0, 0, 0);

    private final Logger logger = Logger.getLogger(QueuePair.class.getName());
    private final RecordedLogs handler = new RecordedLogs();

    private boolean parentHandlers;

    @BeforeEach
    void listen() {
        logger.addHandler(handler);
        parentHandlers = logger.getUseParentHandlers();
        logger.setUseParentHandlers(false);  // the planted bugs' stack traces are expected
    }

    @AfterEach
    void stopListening() {
        logger.removeHandler(handler);
        logger.setUseParentHandlers(parentHandlers);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("A handler throws as a Send's segment starts: Terminate 0x00/0x00 with the segment's header, all flushed")
    void handlerThrowsAtSegmentStart(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, 7);
        IllegalStateException planted = new IllegalStateException("planted bug");
        pair.responder().queuePair.receiveSide.replaceHandler(RdmapOpcode.SEND, throwing(planted, true));
        WorkCompletion[] first = postReceive(pair.responder());
        WorkCompletion[] second = postReceive(pair.responder());
        WorkCompletion[] clientReceive = postReceive(pair.initiator());
        pair.initiator().verbs().post(new SendRequest().tag(1));
        pair.pump();  // nothing escapes: an exception here fails the test

        assertTerminate(pair.responder().terminateWritten(), 0x00, 0x00, M | D);
        assertFlushed(first, SENT);
        assertFlushed(second, SENT);
        assertFlushed(clientReceive, RECEIVED);
        assertFalse(pair.responder().isConnected());
        assertFalse(pair.initiator().isConnected());
        assertTrue(pair.responder().failure().contains("local catastrophic"), pair.responder().failure());
        assertLoggedError(planted);
        assertNull(pair.initiator().terminateWritten(), "the peer does not answer a Terminate");
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("A handler throws an AssertionError as a Write completes: Terminate 0x00/0x00, no header to copy")
    void handlerThrowsAtMessageComplete(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, 7);
        AssertionError planted = new AssertionError("planted assertion");
        pair.responder().queuePair.receiveSide.replaceHandler(RdmapOpcode.RDMA_WRITE, throwing(planted, false));
        MemoryRegion target = pair.responder().verbs().register(ByteBuffer.allocateDirect(64),
                EnumSet.of(Access.REMOTE_WRITE));
        WorkCompletion[] receive = postReceive(pair.responder());
        MemoryRegion source = pair.initiator().verbs().register(ByteBuffer.allocateDirect(64), Set.of());
        pair.initiator().verbs().post(new WriteRequest().gather(source.slice(0, 64)).target(target.remote()));
        pair.pump();

        assertTerminate(pair.responder().terminateWritten(), 0x00, 0x00, 0);
        assertFlushed(receive, SENT);
        assertFalse(pair.initiator().isConnected());
        assertLoggedError(planted);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("A handler throws on a Read Response: the Read completes FLUSHED with the Terminate it caused")
    void handlerThrowsOnReadResponse(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, 7);
        NullPointerException planted = new NullPointerException("planted null");
        pair.initiator().queuePair.receiveSide.replaceHandler(RdmapOpcode.RDMA_READ_RESPONSE, throwing(planted, true));
        IwarpConnection client = pair.initiator().verbs();
        MemoryRegion exposed = pair.responder().verbs().register(ByteBuffer.allocateDirect(64),
                EnumSet.of(Access.REMOTE_READ));
        MemoryRegion sink = client.register(ByteBuffer.allocateDirect(64), EnumSet.of(Access.LOCAL_WRITE));
        WorkCompletion read = client.submit(new ReadRequest().source(exposed.remote()).sink(sink.slice(0, 64)))
                .get(1, TimeUnit.SECONDS);
        assertEquals(CompletionStatus.FLUSHED, read.status());
        assertEquals(SENT, read.cause());
        pair.pump();
        assertTerminate(pair.initiator().terminateWritten(), 0x00, 0x00, M | D);
        assertFalse(pair.responder().isConnected());
        assertLoggedError(planted);
    }

    @Test
    @DisplayName("Closed while a Send straddling two scatter pieces comes in: no exception, the Receive FLUSHED once, nothing placed after")
    void closedWhileABouncedSegmentArrives() {
        EmbeddedPair pair = EmbeddedPair.open(1, 7);
        EmbeddedPair.Side server = pair.responder();
        MemoryRegion inbox = register(server, 100);
        List<WorkCompletion> completions = new ArrayList<>();
        server.verbs().submit(new ReceiveRequest().scatter(inbox.slice(0, 30), inbox.slice(30, 70)))
                .whenComplete((done, failure) -> completions.add(done));
        byte[] payload = new byte[100];
        Arrays.fill(payload, (byte) 0x5A);
        byte[] send = fpdu(untagged(SEND, true, 0, 1, 0, payload));
        server.queuePair.receive(ByteBuffer.wrap(send, 0, 40));  // the header and 20 octets, into the bounce buffer
        server.queuePair.close();  // the application closes: the flush completes the Receive
        assertEquals(1, completions.size());
        assertEquals(CompletionStatus.FLUSHED, completions.get(0).status());
        assertEquals(CompletionCause.CLOSED, completions.get(0).cause());

        server.queuePair.receive(ByteBuffer.wrap(send, 40, send.length - 40));  // was a NullPointerException
        assertEquals(1, completions.size(), "completed once");
        for (int i = 0; i < 100; i++) {
            assertEquals(0, inbox.buffer().get(i), "octet " + i + " placed after the flush");
        }
        assertNull(server.terminateWritten());
    }

    @Test
    @DisplayName("Closed between two segments of a Send: the second is dropped, nothing placed, the Receive FLUSHED once")
    void closedBetweenSegmentsOfASend() {
        EmbeddedPair pair = EmbeddedPair.open(1, 7);
        EmbeddedPair.Side server = pair.responder();
        MemoryRegion inbox = register(server, 100);
        List<WorkCompletion> completions = new ArrayList<>();
        server.verbs().submit(new ReceiveRequest().scatter(inbox.slice(0, 100)))
                .whenComplete((done, failure) -> completions.add(done));
        byte[] half = new byte[50];
        Arrays.fill(half, (byte) 0x5A);
        server.queuePair.receive(ByteBuffer.wrap(fpdu(untagged(SEND, false, 0, 1, 0, half))));
        server.queuePair.close();
        server.queuePair.receive(ByteBuffer.wrap(fpdu(untagged(SEND, true, 0, 1, 50, half))));
        assertEquals(1, completions.size());
        assertEquals(CompletionStatus.FLUSHED, completions.get(0).status());
        for (int i = 50; i < 100; i++) {
            assertEquals(0, inbox.buffer().get(i), "octet " + i + " placed after the flush");
        }
    }

    private static MemoryRegion register(EmbeddedPair.Side side, int size) {
        try {
            return side.verbs().register(ByteBuffer.allocateDirect(size), EnumSet.of(Access.LOCAL_WRITE));
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    /** A handler with a bug: throws {@code planted} as a segment starts, or as its message completes. */
    private static OpcodeHandler throwing(Throwable planted, boolean atSegmentStart) {
        return new OpcodeHandler() {
            @Override
            public ByteBuffer segmentStarted(RdmapSegmentHeader header) {
                if (atSegmentStart) {
                    throwUnchecked(planted);
                }
                return null;
            }

            @Override
            public void messageComplete(RdmapSegmentHeader header) {
                throwUnchecked(planted);
            }
        };
    }

    private static void throwUnchecked(Throwable planted) {
        if (planted instanceof RuntimeException runtime) {
            throw runtime;
        }
        throw (Error) planted;
    }

    private static void assertFlushed(WorkCompletion[] completion, CompletionCause cause) {
        assertNotNull(completion[0], "completed");
        assertEquals(CompletionStatus.FLUSHED, completion[0].status());
        assertEquals(cause, completion[0].cause());
    }

    private void assertLoggedError(Throwable planted) {
        LogRecord error = handler.first(r -> r.getLevel() == Level.SEVERE).orElse(null);
        assertNotNull(error, "an ERROR line");
        assertSame(planted, error.getThrown(), "naming the bug");
        assertTrue(error.getMessage().contains("local catastrophic"), error.getMessage());
    }
}
