package io.extsock.core.ddp;

import static io.extsock.core.ddp.WireHex.buffer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DdpSegmentHeaderTest {

    /** The ULPDU of the FPDU siw accepted (WIRE.md): an untagged last Send, QN 0, MSN 1, MO 0, 16 payload octets. */
    private static final String SIW_ACCEPTED_SEND =
            "41 43 00000000 00000000 00000001 00000000 0000000010000000 00c0ffee 00000040";

    private final DdpSegmentHeader header = new DdpSegmentHeader();

    @Test
    void decodesTheSendSiwAccepted() throws Exception {
        ByteBuffer ulpdu = buffer(SIW_ACCEPTED_SEND);
        assertEquals(0x22, ulpdu.remaining(), "ULPDU_Length of that FPDU");
        header.parse(ulpdu);
        assertFalse(header.tagged());
        assertTrue(header.last());
        assertEquals(1, header.version());
        assertEquals(0x43, header.rdmapControl());
        assertEquals(0, header.rsvdUlp2());
        assertEquals(0, header.queueNumber());
        assertEquals(1, header.messageSequenceNumber());
        assertEquals(0, header.messageOffset());
        assertEquals(18, header.headerLength());
        assertEquals(16, header.payloadLength());
        assertEquals(0, ulpdu.position(), "parsing does not move the position");
    }

    @Test
    void decodesATaggedLastWrite() throws Exception {
        header.parse(buffer("c1 40 1234abcd 0000000000001000 deadbeef"));
        assertTrue(header.tagged());
        assertTrue(header.last());
        assertEquals(0x40, header.rdmapControl());
        assertEquals(0x1234abcd, header.stag());
        assertEquals(0x1000, header.taggedOffset());
        assertEquals(14, header.headerLength());
        assertEquals(4, header.payloadLength());
    }

    @Test
    void theFirstOctetAnnouncesTheHeaderLength_rfc5041_4_2_and_4_3() {
        assertEquals(14, DdpConstants.headerLength(0xC1));
        assertEquals(14, DdpConstants.headerLength(0x81));
        assertEquals(18, DdpConstants.headerLength(0x41));
        assertEquals(18, DdpConstants.headerLength(0x01));
    }

    @Test
    void readsBigEndianFieldsFromALittleEndianBuffer() throws Exception {
        header.parse(buffer("c1 42 cafe0001 0000000000002000").order(ByteOrder.LITTLE_ENDIAN));
        assertEquals(0xcafe0001, header.stag());
        assertEquals(0x2000, header.taggedOffset());
    }

    @Test
    void parsesASegmentInsideALargerBuffer() throws Exception {
        ByteBuffer buffer = buffer("ffff " + SIW_ACCEPTED_SEND + " ffff");
        header.parse(buffer, 2, 0x22);
        assertEquals(1, header.messageSequenceNumber());
        assertEquals(16, header.payloadLength());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2, 3})
    void taggedSegmentWithAnotherVersionIsTaggedInvalidVersion_rfc5041_4_1_and_7_2(int version) {
        ByteBuffer segment = buffer("c0 40 00000001 0000000000000000");
        segment.put(0, (byte) (0xC0 | version));
        assertCause(TerminateCause.DDP_TAGGED_INVALID_VERSION, segment);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2, 3})
    void untaggedSegmentWithAnotherVersionIsUntaggedInvalidVersion_rfc5041_4_1_and_7_2(int version) {
        ByteBuffer segment = buffer(SIW_ACCEPTED_SEND);
        segment.put(0, (byte) (0x40 | version));
        assertCause(TerminateCause.DDP_UNTAGGED_INVALID_VERSION, segment);
    }

    @Test
    void versionIsJudgedBeforeLength_rfc5041_4_1() {
        assertCause(TerminateCause.DDP_UNTAGGED_INVALID_VERSION, buffer("42 43"));
    }

    @Test
    void reservedControlBitsAreNotCheckedOnReceive_rfc5041_4_1() throws Exception {
        ByteBuffer segment = buffer(SIW_ACCEPTED_SEND);
        segment.put(0, (byte) 0x7D);
        header.parse(segment);
        assertEquals(0xF, header.reservedBits());
        assertTrue(header.last());
        assertEquals(1, header.version());
    }

    @Test
    void rsvdUlpIsPassedUpUnchecked_rfc5041_4_3() throws Exception {
        ByteBuffer segment = buffer(SIW_ACCEPTED_SEND);
        segment.putInt(2, 0x5eed5eed);
        segment.put(1, (byte) 0xFF);
        header.parse(segment);
        assertEquals(0x5eed5eed, header.rsvdUlp2());
        assertEquals(0xFF, header.rdmapControl());
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 4, 0x7FFFFFFF, 0xFFFFFFFF})
    void queueNumberOutsideRdmapsQueuesIsInvalidQn_rfc5041_7_1(int queue) {
        ByteBuffer segment = buffer(SIW_ACCEPTED_SEND);
        segment.putInt(6, queue);
        assertCause(TerminateCause.DDP_UNTAGGED_INVALID_QN, segment);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2})
    void rdmapsThreeQueuesAreValid_rfc5040_4_1(int queue) throws Exception {
        ByteBuffer segment = buffer(SIW_ACCEPTED_SEND);
        segment.putInt(6, queue);
        assertEquals(queue, header.parse(segment).queueNumber());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 13})
    void taggedSegmentShorterThanItsHeaderIsRejected_rfc5041_4_4(int length) {
        ByteBuffer segment = buffer("c1 40 00000001 0000000000000000");
        assertCause(TerminateCause.RDMAP_CATASTROPHIC_STREAM, segment.limit(length));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 14, 17})
    void untaggedSegmentShorterThanItsHeaderIsRejected_rfc5041_4_4(int length) {
        assertCause(TerminateCause.RDMAP_CATASTROPHIC_STREAM, buffer(SIW_ACCEPTED_SEND).limit(length));
    }

    @Test
    void emptySegmentIsRejected_rfc5041_4_4() {
        assertCause(TerminateCause.RDMAP_CATASTROPHIC_STREAM, ByteBuffer.allocate(0));
    }

    @Test
    void headerOctetsBeyondTheBufferAreALocalBug() throws Exception {
        ByteBuffer segment = buffer(SIW_ACCEPTED_SEND);
        // The payload may lie elsewhere (placed directly), so a longer segment is fine...
        assertEquals(0x23 - 18, header.parse(segment, 0, 0x23).payloadLength());
        // ...but the header octets themselves must be in the buffer.
        ByteBuffer truncatedHeader = buffer(SIW_ACCEPTED_SEND).limit(10);
        assertThrows(IllegalArgumentException.class, () -> header.parse(truncatedHeader, 0, 0x22));
        assertThrows(IllegalArgumentException.class, () -> header.parse(segment, -1, 4));
        assertThrows(IllegalArgumentException.class, () -> header.parse(ByteBuffer.allocate(70000), 0, 65536));
    }

    @Test
    void readUncheckedAcceptsWhatParseRejects() {
        ByteBuffer segment = buffer(SIW_ACCEPTED_SEND);
        segment.putInt(6, 7);
        segment.put(0, (byte) 0x42);
        header.readUnchecked(segment, 0, 18);
        assertEquals(7, header.queueNumber());
        assertEquals(2, header.version());
    }

    private void assertCause(TerminateCause expected, ByteBuffer segment) {
        ProtocolViolationException e = assertThrows(ProtocolViolationException.class, () -> header.parse(segment));
        assertSame(expected, e.terminateCause(), e.getMessage());
        assertTrue(e.getMessage().contains("RFC"), "the message names its rule: " + e.getMessage());
    }
}
