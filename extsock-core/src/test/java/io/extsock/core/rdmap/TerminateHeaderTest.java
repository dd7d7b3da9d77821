package io.extsock.core.rdmap;

import static io.extsock.core.ddp.WireHex.buffer;
import static io.extsock.core.ddp.WireHex.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.ddp.WireHex;
import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TerminateHeaderTest {

    private static final String SEND_HEADER = "41 43 00000000 00000000 00000001 00000000";
    private static final String READ_REQUEST_HEADER = "41 41 00000000 00000001 00000001 00000000";
    private static final String READ_REQUEST_BODY = "cafe0001 0000000000002000 0000012c 5eed0002 0000000000008000";

    private final TerminateHeader terminate = new TerminateHeader();

    @Test
    void siwCrcErrorReadsAsLlpMpaCrc_wireMd() throws Exception {
        decode("02 02 00 00");
        assertSame(TerminateCause.LLP_MPA_CRC, terminate.cause());
        assertSame(TerminateControlLayout.LITTLE_ENDIAN_BITFIELDS, terminate.layout());
        assertFalse(terminate.segmentLengthValid() || terminate.ddpHeaderIncluded() || terminate.rdmaHeaderIncluded());
        assertFalse(terminate.hasTerminatedDdpHeader());
    }

    @Test
    void siwSendWithoutPostedReceiveReadsAsNoBufferWithTheSendsHeader_wireMd() throws Exception {
        decode("21 02 03 00" + "0000" + SEND_HEADER);
        assertSame(TerminateCause.DDP_UNTAGGED_NO_BUFFER, terminate.cause());
        assertSame(TerminateControlLayout.LITTLE_ENDIAN_BITFIELDS, terminate.layout());
        assertTrue(terminate.segmentLengthValid());
        assertTrue(terminate.ddpHeaderIncluded());
        assertFalse(terminate.rdmaHeaderIncluded());
        assertEquals(0, terminate.reservedBits());
        assertEquals(0, terminate.ddpSegmentLength());
        assertTrue(terminate.hasTerminatedDdpHeader());
        assertEquals(18, terminate.terminatedDdpHeaderLength());
        assertEquals(0x43, terminate.terminatedDdpHeader().rdmapControl());
        assertEquals(1, terminate.terminatedDdpHeader().messageSequenceNumber());
        assertEquals(0x41, terminate.terminatedDdpHeaderOctet(0));
    }

    @Test
    void rfcLayoutOfTheSameTerminate_rfc5040_4_8() throws Exception {
        decode("12 02 c0 00" + "0016" + SEND_HEADER);
        assertSame(TerminateCause.DDP_UNTAGGED_NO_BUFFER, terminate.cause());
        assertSame(TerminateControlLayout.RFC_5040, terminate.layout());
        assertTrue(terminate.segmentLengthValid() && terminate.ddpHeaderIncluded());
        assertEquals(0x16, terminate.ddpSegmentLength());
        assertTrue(terminate.hasTerminatedDdpHeader());
    }

    @Test
    void whenBothReadingsMakeSenseTheRfcOneWins() throws Exception {
        decode("20 06 00 00");
        assertSame(TerminateCause.LLP_MPA_INSUFFICIENT_IRD, terminate.cause(),
                "siw's RDMAP unexpected opcode is also LLP insufficient IRD the RFC way");
        assertSame(TerminateControlLayout.RFC_5040, terminate.layout());
    }

    @Test
    void siwFlagsOutweighAnRfcReadingWithReservedBitsSet() throws Exception {
        decode("11 00 03 00" + "0000" + "c1 40 00000bad 0000000000001000");
        assertSame(TerminateCause.DDP_TAGGED_INVALID_STAG, terminate.cause());
        assertSame(TerminateControlLayout.LITTLE_ENDIAN_BITFIELDS, terminate.layout());
        assertTrue(terminate.ddpHeaderIncluded());
        assertEquals(14, terminate.terminatedDdpHeaderLength());
        assertEquals(0xbad, terminate.terminatedDdpHeader().stag());
    }

    @Test
    void reservedBitsAreIgnoredOnReceive_rfc5040_4_8() throws Exception {
        decode("12 05 1f ff");
        assertSame(TerminateCause.DDP_UNTAGGED_MESSAGE_TOO_LONG, terminate.cause());
        assertSame(TerminateControlLayout.RFC_5040, terminate.layout());
        assertEquals(0x1FFF, terminate.reservedBits());
    }

    @Test
    void anUnregisteredCauseKeepsItsRawValues() throws Exception {
        decode("ff 7e 00 00");
        assertNull(terminate.cause());
        assertSame(TerminateControlLayout.RFC_5040, terminate.layout());
        assertEquals(0xF, terminate.layer());
        assertEquals(0xF, terminate.errorType());
        assertEquals(0x7E, terminate.errorCode());
    }

    @Test
    void readRequestErrorsCarryBothHeaders_rfc5040_4_8() throws Exception {
        decode("01 00 e0 00" + "002e" + READ_REQUEST_HEADER + READ_REQUEST_BODY);
        assertSame(TerminateCause.RDMAP_INVALID_STAG, terminate.cause());
        assertTrue(terminate.hasTerminatedDdpHeader());
        assertEquals(1, terminate.terminatedDdpHeader().queueNumber());
        assertTrue(terminate.hasTerminatedReadRequest());
        assertEquals(0x5eed0002, terminate.terminatedReadRequest().sourceStag());
        assertEquals(300, terminate.terminatedReadRequest().readSize());
    }

    @Test
    void rWithoutAnRdmaHeaderIsTolerated_siwSendWithInvalidate() throws Exception {
        decode("10 09 07 00" + "0000" + "41 44 00000bad 00000000 00000001 00000000");
        assertSame(TerminateCause.RDMAP_PROTECTION_CANNOT_INVALIDATE, terminate.cause());
        assertTrue(terminate.rdmaHeaderIncluded());
        assertFalse(terminate.hasTerminatedReadRequest());
        assertTrue(terminate.hasTerminatedDdpHeader());
    }

    @Test
    void aCutShortCopyIsReportedAbsent() throws Exception {
        decode("12 02 c0 00" + "0016" + "41 43 00000000");
        assertTrue(terminate.ddpHeaderIncluded());
        assertFalse(terminate.hasTerminatedDdpHeader());
        decode("12 02 c0 00" + "00");
        assertEquals(-1, terminate.ddpSegmentLength());
        assertFalse(terminate.hasTerminatedDdpHeader());
    }

    @Test
    void aTerminateWithoutItsControlWordIsRejected_rfc5040_4_8() {
        ProtocolViolationException e = assertThrows(ProtocolViolationException.class,
                () -> terminate.decode(buffer("12 02 c0"), 0, 3));
        assertSame(TerminateCause.RDMAP_CATASTROPHIC_STREAM, e.terminateCause());
    }

    @Test
    void encodesInRfcLayoutWithReservedBitsZero_rfc5040_4_8() {
        ByteBuffer failed = buffer(READ_REQUEST_HEADER + READ_REQUEST_BODY);
        ReadRequestHeader request = new ReadRequestHeader().read(failed, 18);
        terminate.reset(TerminateCause.RDMAP_INVALID_STAG);
        assertTrue(terminate.includeTerminatedSegment(failed, 0, failed.remaining()));
        terminate.includeTerminatedReadRequest(request);
        ByteBuffer dst = ByteBuffer.allocate(64);
        terminate.put(dst);
        assertEquals(4 + 2 + 18 + 28, terminate.encodedLength());
        assertEquals(hex("01 00 e0 00" + "002e" + READ_REQUEST_HEADER + READ_REQUEST_BODY), WireHex.hex(dst.flip()));
    }

    @Test
    void aSegmentTooShortForItsHeaderCannotBeCopied_rfc5040_4_8_figure10() {
        terminate.reset(TerminateCause.RDMAP_CATASTROPHIC_STREAM);
        assertFalse(terminate.includeTerminatedSegment(buffer("c1 40 0000"), 0, 4));
        assertFalse(terminate.ddpHeaderIncluded());
        assertEquals(4, terminate.encodedLength());
    }

    @ParameterizedTest
    @EnumSource(TerminateCause.class)
    void everyCauseRoundTrips(TerminateCause cause) throws Exception {
        ByteBuffer failed = buffer(SEND_HEADER + "00c0ffee");
        terminate.reset(cause);
        terminate.includeTerminatedSegment(failed, 0, failed.remaining());
        ByteBuffer dst = ByteBuffer.allocate(64);
        terminate.put(dst);
        dst.flip();
        TerminateHeader decoded = new TerminateHeader().decode(dst, 0, dst.remaining());
        assertSame(cause, decoded.cause());
        assertSame(TerminateControlLayout.RFC_5040, decoded.layout());
        assertTrue(decoded.segmentLengthValid());
        assertEquals(22, decoded.ddpSegmentLength());
        assertEquals(1, decoded.terminatedDdpHeader().messageSequenceNumber());
    }

    private void decode(String hex) throws ProtocolViolationException {
        ByteBuffer bytes = buffer(hex);
        terminate.decode(bytes, 0, bytes.remaining());
    }
}
