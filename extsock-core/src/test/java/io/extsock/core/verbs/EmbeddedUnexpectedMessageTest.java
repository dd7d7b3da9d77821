package io.extsock.core.verbs;

import static io.extsock.core.verbs.RawSegments.READ_REQUEST;
import static io.extsock.core.verbs.RawSegments.READ_RESPONSE;
import static io.extsock.core.verbs.RawSegments.SEND;
import static io.extsock.core.verbs.RawSegments.TERMINATE;
import static io.extsock.core.verbs.RawSegments.WRITE;
import static io.extsock.core.verbs.RawSegments.fpdu;
import static io.extsock.core.verbs.RawSegments.fpdus;
import static io.extsock.core.verbs.RawSegments.readRequestHeader;
import static io.extsock.core.verbs.RawSegments.tagged;
import static io.extsock.core.verbs.RawSegments.terminateControl;
import static io.extsock.core.verbs.RawSegments.untagged;
import static io.extsock.core.verbs.TerminateAssertions.D;
import static io.extsock.core.verbs.TerminateAssertions.M;
import static io.extsock.core.verbs.TerminateAssertions.assertTerminate;
import static io.extsock.core.verbs.TerminateAssertions.sentCause;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import io.extsock.verbs.WorkCompletion;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every kind of message a queue pair does not expect, hand-built and put on the wire in front
 * of it ({@link EmbeddedPair#inject}): each ends in a Terminate whose control word names the
 * rule (RFC 5040 section 4.8, codes of RFC 5040 section 7 and RFC 5041 section 7.2), every
 * request of the end that caught it completes with an error, and nothing escapes the receive
 * path. The octets cross in chunks of 1 to 7.
 */
class EmbeddedUnexpectedMessageTest {

    private static final int MAX_CHUNK = 7;
    private static final byte[] NOTHING = new byte[0];

    // ---- the Read Response queue: RDMA Read Responses that match no outstanding Read -----------

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("A zero-length Read Response with no Read ever sent: RDMAP unexpected opcode 0x02/0x06 (was a NullPointerException)")
    void emptyReadResponseWithoutRead(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, MAX_CHUNK);
        WorkCompletion[] receive = postReceive(pair.initiator());
        pair.inject(pair.responder(), fpdu(tagged(READ_RESPONSE, true, 0x1234, 0, NOTHING)));
        pair.pump();
        assertTerminate(pair.initiator().terminateWritten(), 0x02, 0x06, M | D);
        assertVictimEnded(pair, pair.initiator(), receive, CompletionCause.terminateSent(0, 2, 0x06));
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("A Read Response with payload and no Read ever sent: DDP tagged, invalid STag 0x11/0x00, nothing placed")
    void readResponseWithoutRead(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, MAX_CHUNK);
        MemoryRegion sink = pair.initiator().verbs().register(ByteBuffer.allocateDirect(64),
                EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
        WorkCompletion[] receive = postReceive(pair.initiator());
        pair.inject(pair.responder(), fpdu(tagged(READ_RESPONSE, true, sink.stag(), 0, new byte[] {9, 9, 9, 9})));
        pair.pump();
        assertTerminate(pair.initiator().terminateWritten(), 0x11, 0x00, M | D);
        assertEquals(0, sink.buffer().get(0), "nothing placed, though the STag allows remote writes");
        assertVictimEnded(pair, pair.initiator(), receive, CompletionCause.terminateSent(1, 1, 0x00));
    }

    @ParameterizedTest(name = "seed {0}, {1} octets")
    @MethodSource("afterTheReadFinished")
    @DisplayName("A Read Response after the only Read completed: as with none outstanding")
    void readResponseAfterTheReadFinished(long seed, int length, int layerAndType, int code) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, MAX_CHUNK);
        IwarpConnection client = pair.initiator().verbs();
        MemoryRegion exposed = pair.responder().verbs().register(ByteBuffer.allocateDirect(64),
                EnumSet.of(Access.REMOTE_READ));
        MemoryRegion sink = client.register(ByteBuffer.allocateDirect(64), EnumSet.of(Access.LOCAL_WRITE));
        WorkCompletion read = client.submit(new ReadRequest().source(exposed.remote()).sink(sink.slice(0, 64)))
                .get(1, TimeUnit.SECONDS);
        assertEquals(CompletionStatus.SUCCESS, read.status());
        WorkCompletion[] receive = postReceive(pair.initiator());
        pair.inject(pair.responder(), fpdu(tagged(READ_RESPONSE, true, sink.stag(), 0, new byte[length])));
        pair.pump();
        assertTerminate(pair.initiator().terminateWritten(), layerAndType, code, M | D);
        assertVictimEnded(pair, pair.initiator(), receive,
                sentCause(layerAndType, code));
    }

    static Stream<Arguments> afterTheReadFinished() {
        return Stream.of(1L, 2L).flatMap(seed -> Stream.of(
                Arguments.of(seed, 0, 0x02, 0x06),
                Arguments.of(seed, 16, 0x11, 0x00)));
    }

    @ParameterizedTest(name = "seed {0}: {1}")
    @MethodSource("mismatchedResponses")
    @DisplayName("A Read Response that does not fill the outstanding Read's sink exactly: DDP tagged, the code named")
    void readResponseNotMatchingTheRead(long seed, String what, int toFromSinkStart, int length, boolean wrongStag,
                                        int code) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, MAX_CHUNK);
        IwarpConnection client = pair.initiator().verbs();
        MemoryRegion sink = client.register(ByteBuffer.allocateDirect(256), EnumSet.of(Access.LOCAL_WRITE));
        client.post(new ReadRequest().tag(7).source(new io.extsock.verbs.RemoteBuffer(0x7777, 0, 64))
                .sink(sink.slice(32, 64)));
        pair.transmitOnly(pair.initiator());  // the Read Request is out; the responder never sees it
        int stag = wrongStag ? sink.stag() + 1 : sink.stag();
        pair.inject(pair.responder(), fpdu(tagged(READ_RESPONSE, true, stag, 32 + toFromSinkStart,
                new byte[length])));
        pair.carry(pair.responder());
        pair.transmitOnly(pair.initiator());  // its Terminate
        assertTerminate(pair.initiator().terminateWritten(), 0x11, code, M | D);
        WorkCompletion read = client.completions().take(0, TimeUnit.SECONDS);
        assertNotNull(read, "the Read completed");
        assertEquals(7, read.tag());
        assertEquals(CompletionStatus.FLUSHED, read.status());
        assertEquals(CompletionCause.terminateSent(1, 1, code), read.cause());
        assertFalse(pair.initiator().isConnected());
        for (int i = 0; i < 256; i++) {
            assertEquals(0, sink.buffer().get(i), "octet " + i + " not placed");
        }
    }

    static Stream<Arguments> mismatchedResponses() {
        return Stream.of(1L, 2L).flatMap(seed -> Stream.of(
                Arguments.of(seed, "longer than the sink", 0, 100, false, 0x01),
                Arguments.of(seed, "shorter than the Read (was a SUCCESS)", 0, 50, false, 0x01),
                Arguments.of(seed, "empty, for a Read of 64 (was a SUCCESS)", 0, 0, false, 0x01),
                Arguments.of(seed, "starting inside the sink (was a SUCCESS)", 14, 50, false, 0x01),
                Arguments.of(seed, "starting before the sink", -8, 64, false, 0x01),
                Arguments.of(seed, "to another STag", 0, 64, true, 0x00)));
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("A Read Response in two segments whose second leaves a gap: DDP tagged, base or bounds 0x11/0x01")
    void readResponseWithAGap(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, MAX_CHUNK);
        IwarpConnection client = pair.initiator().verbs();
        MemoryRegion sink = client.register(ByteBuffer.allocateDirect(64), EnumSet.of(Access.LOCAL_WRITE));
        client.post(new ReadRequest().tag(7).source(new io.extsock.verbs.RemoteBuffer(0x7777, 0, 64))
                .sink(sink.slice(0, 64)));
        pair.transmitOnly(pair.initiator());
        pair.inject(pair.responder(), fpdus(List.of(tagged(READ_RESPONSE, false, sink.stag(), 0, new byte[20]),
                tagged(READ_RESPONSE, true, sink.stag(), 30, new byte[34]))));
        pair.carry(pair.responder());
        pair.transmitOnly(pair.initiator());  // its Terminate
        assertTerminate(pair.initiator().terminateWritten(), 0x11, 0x01, M | D);
        assertEquals(CompletionStatus.FLUSHED, client.completions().take(0, TimeUnit.SECONDS).status());
    }

    // ---- untagged queues: the wrong queue, the wrong T bit, unknown opcodes, MSNs ---------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("untaggedViolations")
    @DisplayName("A message the responder cannot take: the Terminate names the rule")
    void unexpectedMessage(String what, byte[] ulpdu, int layerAndType, int code) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(what.hashCode(), MAX_CHUNK);
        WorkCompletion[] receive = postReceive(pair.responder());
        pair.inject(pair.initiator(), fpdu(ulpdu));
        pair.pump();
        assertTerminate(pair.responder().terminateWritten(), layerAndType, code, M | D);
        assertVictimEnded(pair, pair.responder(), receive,
                sentCause(layerAndType, code));
    }

    static Stream<Arguments> untaggedViolations() {
        byte[] read = readRequestHeader(0x100, 0, 8, 0x200, 0);
        byte[] terminate = terminateControl(0, 2, 0xFF);
        return Stream.of(
                // RFC 5040 section 4.1 Figure 4: each untagged opcode has its queue (DDP invalid QN)
                Arguments.of("Send on queue 1", untagged(SEND, true, 1, 1, 0, new byte[4]), 0x12, 0x01),
                Arguments.of("Send on queue 2", untagged(SEND, true, 2, 1, 0, new byte[4]), 0x12, 0x01),
                Arguments.of("Send on queue 3", untagged(SEND, true, 3, 1, 0, new byte[4]), 0x12, 0x01),
                Arguments.of("Read Request on queue 0", untagged(READ_REQUEST, true, 0, 1, 0, read), 0x12, 0x01),
                Arguments.of("Read Request on queue 2", untagged(READ_REQUEST, true, 2, 1, 0, read), 0x12, 0x01),
                Arguments.of("Terminate on queue 0", untagged(TERMINATE, true, 0, 1, 0, terminate), 0x12, 0x01),
                Arguments.of("Terminate on queue 1", untagged(TERMINATE, true, 1, 1, 0, terminate), 0x12, 0x01),
                Arguments.of("queue 0xFFFFFFFF", untagged(SEND, true, -1, 1, 0, new byte[4]), 0x12, 0x01),
                // Figure 4's T bit (RDMAP unexpected opcode)
                Arguments.of("Write untagged", untagged(WRITE, true, 0, 1, 0, new byte[4]), 0x02, 0x06),
                Arguments.of("Read Response untagged", untagged(READ_RESPONSE, true, 0, 1, 0, new byte[4]), 0x02, 0x06),
                Arguments.of("Send tagged", tagged(SEND, true, 0x100, 0, new byte[4]), 0x02, 0x06),
                Arguments.of("Read Request tagged", tagged(READ_REQUEST, true, 0x100, 0, read), 0x02, 0x06),
                Arguments.of("Terminate tagged", tagged(TERMINATE, true, 0x100, 0, terminate), 0x02, 0x06),
                // RFC 7306's opcodes (not supported here) and the unassigned and experimental ones
                Arguments.of("Immediate Data (0x8)", untagged(0x8, true, 0, 1, 0, new byte[8]), 0x02, 0x06),
                Arguments.of("Atomic Request (0xA)", untagged(0xA, true, 1, 1, 0, new byte[8]), 0x02, 0x06),
                Arguments.of("Atomic Response (0xB)", untagged(0xB, true, 1, 1, 0, new byte[8]), 0x02, 0x06),
                Arguments.of("opcode 0xC", untagged(0xC, true, 0, 1, 0, new byte[4]), 0x02, 0x06),
                Arguments.of("opcode 0xF tagged", tagged(0xF, true, 0x100, 0, new byte[4]), 0x02, 0x06),
                // MSNs (RFC 5041 section 7.1 check 5): each queue counts from 1
                Arguments.of("Send with MSN 2 first", untagged(SEND, true, 0, 2, 0, new byte[4]), 0x12, 0x03),
                Arguments.of("Send with MSN 0", untagged(SEND, true, 0, 0, 0, new byte[4]), 0x12, 0x03),
                Arguments.of("Read Request with MSN 0x80000000",
                        untagged(READ_REQUEST, true, 1, 0x8000_0000, 0, read), 0x12, 0x03),
                Arguments.of("Terminate with MSN 7", untagged(TERMINATE, true, 2, 7, 0, terminate), 0x12, 0x03),
                // a message's first segment starts at MO 0 (RFC 5041 section 7.1 check 3)
                Arguments.of("Send starting at MO 4", untagged(SEND, true, 0, 1, 4, new byte[4]), 0x12, 0x04),
                // versions (RFC 5041 section 4.1, RFC 5040 section 4.1)
                Arguments.of("DDP version 2", withOctet(untagged(SEND, true, 0, 1, 0, new byte[4]), 0, 0x42),
                        0x12, 0x06),
                Arguments.of("RDMAP version 2", withOctet(untagged(SEND, true, 0, 1, 0, new byte[4]), 1, 0x83),
                        0x02, 0x05));
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("Sends in the right order, then one whose MSN skips ahead: DDP untagged, MSN range 0x12/0x03")
    void sendSkippingAnMsn(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, MAX_CHUNK);
        WorkCompletion[] first = postReceive(pair.responder());
        WorkCompletion[] second = postReceive(pair.responder());
        pair.inject(pair.initiator(), fpdus(List.of(untagged(SEND, true, 0, 1, 0, new byte[4]),
                untagged(SEND, true, 0, 3, 0, new byte[4]))));
        pair.pump();
        assertEquals(CompletionStatus.SUCCESS, first[0].status(), "MSN 1 arrived");
        assertTerminate(pair.responder().terminateWritten(), 0x12, 0x03, M | D);
        assertEquals(CompletionStatus.FLUSHED, second[0].status());
    }

    // ---- the peer's Terminate, on its queue: ends the connection, no Terminate back -------------

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("A Terminate on queue 2 ends the connection without one back; the Receive flushes with its cause")
    void terminateOnItsQueue(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(seed, MAX_CHUNK);
        WorkCompletion[] receive = postReceive(pair.responder());
        pair.inject(pair.initiator(), fpdu(untagged(TERMINATE, true, 2, 1, 0, terminateControl(0, 2, 0xFF))));
        pair.pump();
        assertNull(pair.responder().terminateWritten(), "no Terminate answers a Terminate");
        assertFalse(pair.responder().isConnected());
        assertNotNull(receive[0]);
        assertEquals(CompletionStatus.FLUSHED, receive[0].status());
        assertEquals(CompletionCause.terminateReceived(0, 2, 0xFF), receive[0].cause());
    }

    /** Posts a Receive on the side; the array gets its completion. */
    static WorkCompletion[] postReceive(EmbeddedPair.Side side) throws Exception {
        MemoryRegion inbox = side.verbs().register(ByteBuffer.allocateDirect(64), EnumSet.of(Access.LOCAL_WRITE));
        WorkCompletion[] completion = new WorkCompletion[1];
        side.verbs().submit(new ReceiveRequest().scatter(inbox.slice(0, 64)))
                .whenComplete((done, failure) -> completion[0] = done);
        return completion;
    }

    /** The side that caught the violation ended, its Receive flushed with the Terminate's cause; the peer too. */
    static void assertVictimEnded(EmbeddedPair pair, EmbeddedPair.Side victim, WorkCompletion[] receive,
                                  CompletionCause cause) {
        pair.pump();
        assertFalse(victim.isConnected(), "the end that caught it ended");
        assertTrue(victim.askedToClose(), "and asked to close");
        assertNotNull(receive[0], "its Receive completed");
        assertEquals(CompletionStatus.FLUSHED, receive[0].status());
        assertEquals(cause, receive[0].cause());
        EmbeddedPair.Side peer = victim == pair.initiator() ? pair.responder() : pair.initiator();
        assertFalse(peer.isConnected(), "the peer ended on the Terminate");
        assertNull(peer.terminateWritten(), "the peer sent no Terminate back");
    }

    private static byte[] withOctet(byte[] ulpdu, int index, int value) {
        ulpdu[index] = (byte) value;
        return ulpdu;
    }
}
