package io.extsock.core.rdmap;

import static io.extsock.core.ddp.WireHex.buffer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RdmapSegmentHeaderTest {

    private static final String UNTAGGED_TAIL = "00000000 00000000 00000001 00000000";
    private static final String READ_REQUEST =
            "41 41 00000000 00000001 00000001 00000000 cafe0001 0000000000002000 0000012c 5eed0002 0000000000008000";

    private final RdmapSegmentHeader header = new RdmapSegmentHeader();

    @Test
    void decodesTheSendSiwAccepted_wireMd() throws Exception {
        ByteBuffer ulpdu = buffer("41 43 " + UNTAGGED_TAIL + " 0000000010000000 00c0ffee 00000040");
        header.decode(ulpdu);
        assertSame(RdmapOpcode.SEND, header.opcode());
        assertEquals(0, header.ddp().queueNumber());
        assertEquals(1, header.ddp().messageSequenceNumber());
        assertEquals(0, header.ddp().messageOffset());
        assertTrue(header.ddp().last());
        assertEquals(18, header.ulpPayloadOffset());
        assertEquals(16, header.ulpPayloadLength());
        assertEquals(0x00c0ffee, ulpdu.getInt(header.ulpPayloadOffset() + 8), "rping's rkey in the payload");
    }

    @Test
    void decodesTheControlOctetsOfWireMd() throws Exception {
        assertSame(RdmapOpcode.RDMA_WRITE, header.decode(buffer("c1 40 1234abcd 0000000000001000 ff")).opcode());
        assertEquals(0x1234abcd, header.ddp().stag());
        assertEquals(14, header.ulpPayloadOffset());
        assertEquals(1, header.ulpPayloadLength());
        assertSame(RdmapOpcode.RDMA_READ_RESPONSE, header.decode(buffer("c1 42 cafe0001 0000000000002000")).opcode());
        assertEquals(0x2000, header.ddp().taggedOffset());
        assertSame(RdmapOpcode.RDMA_READ_REQUEST, header.decode(buffer(READ_REQUEST)).opcode());
        assertSame(RdmapOpcode.TERMINATE,
                header.decode(buffer("41 47 00000000 00000002 00000001 00000000 20 02 00 00")).opcode());
    }

    @Test
    void readRequestBody_rfc5040_4_4() throws Exception {
        header.decode(buffer(READ_REQUEST));
        ReadRequestHeader request = header.readRequest();
        assertEquals(0xcafe0001, request.sinkStag());
        assertEquals(0x2000, request.sinkTaggedOffset());
        assertEquals(300, request.readSize());
        assertEquals(0x5eed0002, request.sourceStag());
        assertEquals(0x8000, request.sourceTaggedOffset());
        assertEquals(0, header.ulpPayloadLength());
    }

    @Test
    void terminateBody_rfc5040_4_8() throws Exception {
        header.decode(buffer("41 47 00000000 00000002 00000001 00000000 20 02 00 00"));
        assertSame(TerminateCause.LLP_MPA_CRC, header.terminate().cause());
        assertEquals(0, header.ulpPayloadLength());
    }

    @Test
    void invalidateVariantsCarryTheirStag_rfc5040_4_1() throws Exception {
        header.decode(buffer("41 46 0badf00d 00000000 00000001 00000000"));
        assertSame(RdmapOpcode.SEND_WITH_SOLICITED_EVENT_AND_INVALIDATE, header.opcode());
        assertEquals(0x0badf00d, header.invalidateStag());
    }

    @Test
    void invalidateStagOfOtherMessagesIsIgnored_rfc5040_4_1() throws Exception {
        header.decode(buffer("41 43 ffffffff 00000000 00000001 00000000"));
        assertSame(RdmapOpcode.SEND, header.opcode());
        assertFalse(header.opcode().invalidatesStag());
    }

    @Test
    void reservedRdmapBitsAreIgnoredByTheReceiver_rfc5040_4_1() throws Exception {
        header.decode(buffer("41 73 " + UNTAGGED_TAIL));
        assertSame(RdmapOpcode.SEND, header.opcode());
        assertEquals(3, header.rdmapReservedBits());
    }

    @ParameterizedTest
    @ValueSource(ints = {0x03, 0x83, 0xC3})
    void anotherRdmapVersionIsInvalidVersion_rfc5040_7_2(int control) {
        assertCause(TerminateCause.RDMAP_INVALID_VERSION, "41 " + hex(control) + UNTAGGED_TAIL);
    }

    @ParameterizedTest
    @ValueSource(ints = {0xC, 0xD, 0xE, 0xF})
    void unassignedOpcodesAreUnexpected_rfc5040_7_2(int opcode) {
        assertCause(TerminateCause.RDMAP_UNEXPECTED_OPCODE, "41 " + hex(0x40 | opcode) + UNTAGGED_TAIL);
        assertCause(TerminateCause.RDMAP_UNEXPECTED_OPCODE, "c1 " + hex(0x40 | opcode) + "00000000 0000000000000000");
    }

    @Test
    void rfc7306OpcodesAreAnsweredAsUnexpected_rfc7306_1_1() {
        assertCause(TerminateCause.RDMAP_UNEXPECTED_OPCODE, "41 48 " + UNTAGGED_TAIL + " 0102030405060708");
        assertCause(TerminateCause.RDMAP_UNEXPECTED_OPCODE, "41 49 " + UNTAGGED_TAIL + " 0102030405060708");
        assertCause(TerminateCause.RDMAP_UNEXPECTED_OPCODE, "41 4a 00000000 00000001 00000001 00000000");
    }

    @Test
    void atomicResponsesOnQueueThreeFailAtTheQueue_rfc5041_7_1() {
        assertCause(TerminateCause.DDP_UNTAGGED_INVALID_QN, "41 4b 00000000 00000003 00000001 00000000");
    }

    @Test
    void untaggedOpcodesInTaggedSegmentsAreUnexpected_rfc5040_4_1() {
        assertCause(TerminateCause.RDMAP_UNEXPECTED_OPCODE, "c1 43 00000001 0000000000000000");
        assertCause(TerminateCause.RDMAP_UNEXPECTED_OPCODE, "c1 41 00000001 0000000000000000");
        assertCause(TerminateCause.RDMAP_UNEXPECTED_OPCODE, "c1 47 00000001 0000000000000000");
    }

    @Test
    void taggedOpcodesInUntaggedSegmentsAreUnexpected_rfc5040_4_1() {
        assertCause(TerminateCause.RDMAP_UNEXPECTED_OPCODE, "41 40 " + UNTAGGED_TAIL);
        assertCause(TerminateCause.RDMAP_UNEXPECTED_OPCODE, "41 42 " + UNTAGGED_TAIL);
    }

    @Test
    void eachUntaggedOpcodeBelongsOnItsQueue_rfc5040_4_1() {
        assertCause(TerminateCause.DDP_UNTAGGED_INVALID_QN, "41 43 00000000 00000001 00000001 00000000");
        assertCause(TerminateCause.DDP_UNTAGGED_INVALID_QN, "41 44 00000000 00000002 00000001 00000000");
        assertCause(TerminateCause.DDP_UNTAGGED_INVALID_QN, "41 41 00000000 00000000 00000001 00000000"
                + " cafe0001 0000000000002000 0000012c 5eed0002 0000000000008000");
        assertCause(TerminateCause.DDP_UNTAGGED_INVALID_QN, "41 47 00000000 00000000 00000001 00000000 20020000");
    }

    @Test
    void readRequestCarriesExactlyItsHeader_rfc5040_4_2_and_4_4() {
        assertCause(TerminateCause.RDMAP_CATASTROPHIC_STREAM, READ_REQUEST.substring(0, READ_REQUEST.length() - 2));
        assertCause(TerminateCause.RDMAP_CATASTROPHIC_STREAM, READ_REQUEST + " 00");
        assertCause(TerminateCause.RDMAP_CATASTROPHIC_STREAM, "41 41 00000000 00000001 00000001 00000000");
    }

    @Test
    void readRequestIsOneSegment_rfc5040_4_4() {
        assertCause(TerminateCause.RDMAP_CATASTROPHIC_STREAM, "01" + READ_REQUEST.substring(2));
        assertCause(TerminateCause.DDP_UNTAGGED_INVALID_MO,
                "41 41 00000000 00000001 00000001 00000010 cafe0001 0000000000002000 0000012c 5eed0002 0000000000008000");
    }

    @Test
    void terminateIsOneSegmentWithItsControlWord_rfc5040_4_8() {
        assertCause(TerminateCause.RDMAP_CATASTROPHIC_STREAM, "41 47 00000000 00000002 00000001 00000000 200200");
        assertCause(TerminateCause.RDMAP_CATASTROPHIC_STREAM, "01 47 00000000 00000002 00000001 00000000 20020000");
        assertCause(TerminateCause.DDP_UNTAGGED_INVALID_MO, "41 47 00000000 00000002 00000001 00000001 20020000");
    }

    @Test
    void ddpChecksComeFirst_rfc5040_7_2() {
        assertCause(TerminateCause.DDP_UNTAGGED_INVALID_VERSION, "42 c3 " + UNTAGGED_TAIL);
        assertCause(TerminateCause.RDMAP_CATASTROPHIC_STREAM, "41 43 00000000");
    }

    @Test
    void aFailedDecodeLeavesNoOpcode() {
        assertCause(TerminateCause.RDMAP_INVALID_VERSION, "41 03 " + UNTAGGED_TAIL);
        assertNull(header.opcode());
    }

    private void assertCause(TerminateCause expected, String hex) {
        ProtocolViolationException e = assertThrows(ProtocolViolationException.class, () -> header.decode(buffer(hex)));
        assertSame(expected, e.terminateCause(), e.getMessage());
        assertTrue(e.getMessage().contains("RFC"), e.getMessage());
    }

    private static String hex(int octet) {
        return String.format("%02x ", octet);
    }
}
