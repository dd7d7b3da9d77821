package io.extsock.core.mpa;

import static io.extsock.core.mpa.Bytes.concat;
import static io.extsock.core.mpa.Bytes.hex;
import static io.extsock.core.mpa.FpduDeframer.Progress.FPDU_COMPLETE;
import static io.extsock.core.mpa.FpduDeframer.Progress.NEED_INPUT;
import static io.extsock.core.mpa.FpduDeframer.Progress.ULPDU_BYTES;
import static io.extsock.core.mpa.FpduFramerTest.INTERIOR_MARKERS;
import static io.extsock.core.mpa.FpduFramerTest.LEADING_MARKER;
import static io.extsock.core.mpa.FpduFramerTest.MARKER_BEFORE_CRC;
import static io.extsock.core.mpa.FpduFramerTest.MARKER_IN_HEADER;
import static io.extsock.core.mpa.FpduFramerTest.MARKER_ON_BOUNDARY;
import static io.extsock.core.mpa.FpduFramerTest.RPING_PAYLOAD;
import static io.extsock.core.mpa.FpduFramerTest.SEND_HEADER;
import static io.extsock.core.mpa.FpduFramerTest.SIW_ACCEPTED_FPDU;
import static io.extsock.core.mpa.FpduFramerTest.counting;
import static io.extsock.core.terminate.TerminateCause.LLP_MPA_CRC;
import static io.extsock.core.terminate.TerminateCause.LLP_MPA_MARKER;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.terminate.ProtocolViolationException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class FpduDeframerTest {

    @Test
    @DisplayName("RFC 5044 section 4: the FPDU siw accepted: DDP header to scratch, payload placed, CRC verified")
    void siwAcceptedFpdu() throws Exception {
        FpduDeframer deframer = new FpduDeframer(true, false);
        ByteBuffer input = ByteBuffer.wrap(SIW_ACCEPTED_FPDU);
        assertEquals(ULPDU_BYTES, deframer.advance(input));
        assertEquals(34, deframer.ulpduLength());
        assertEquals(34, deframer.contiguousUlpduBytes());
        ByteBuffer header = ByteBuffer.allocate(18);
        assertEquals(18, deframer.copyUlpdu(input, header, 18));
        assertArrayEquals(SEND_HEADER, header.array());
        assertEquals(ULPDU_BYTES, deframer.advance(input));
        assertEquals(16, deframer.ulpduRemaining());

        // The engine would read these 16 octets from the socket into the receive buffer.
        ByteBuffer receiveBuffer = ByteBuffer.allocateDirect(64);
        receiveBuffer.position(8);
        receiveBuffer.put(input.slice(input.position(), 16));
        input.position(input.position() + 16);
        receiveBuffer.position(8).limit(24);
        deframer.ulpduPlaced(receiveBuffer);
        assertEquals(8, receiveBuffer.position(), "the placed buffer's position stays");
        assertEquals(FPDU_COMPLETE, deframer.advance(input));
        assertEquals(40, deframer.streamOffset());
        assertEquals(NEED_INPUT, deframer.advance(input));
    }

    @Test
    @DisplayName("RFC 5044 section 4: one octet at a time")
    void oneOctetAtATime() throws Exception {
        assertArrayEquals(concat(SEND_HEADER, RPING_PAYLOAD), deframe(SIW_ACCEPTED_FPDU, true, false, 1).get(0));
    }

    @Test
    @DisplayName("RFC 5044 section 8: a CRC mismatch is an MPA CRC error naming both values")
    void crcMismatch() {
        byte[] corrupt = SIW_ACCEPTED_FPDU.clone();
        corrupt[39] ^= 0x01;
        ProtocolViolationException failure = assertThrows(ProtocolViolationException.class,
                () -> deframe(corrupt, true, false, 1000));
        assertEquals(LLP_MPA_CRC, failure.terminateCause());
        assertEquals(LLP_MPA_CRC.description() + ": the FPDU at stream offset 0"
                + " (ULPDU_Length 34) carries CRC32c 0x62F1E245 (wire 45 e2 f1 62), its contents give 0x63F1E245",
                failure.getMessage());
    }

    @Test
    @DisplayName("RFC 5044 section 4: a flipped payload bit is caught by the CRC")
    void payloadCorruption() {
        byte[] corrupt = SIW_ACCEPTED_FPDU.clone();
        corrupt[30] ^= 0x40;
        assertEquals(LLP_MPA_CRC, assertThrows(ProtocolViolationException.class,
                () -> deframe(corrupt, true, false, 7)).terminateCause());
    }

    @Test
    @DisplayName("RFC 5044 section 7.1.1: without CRC the CRC field is not looked at")
    void crcOffIsLiberal() throws Exception {
        byte[] anyCrc = SIW_ACCEPTED_FPDU.clone();
        anyCrc[36] = 0x12;
        assertArrayEquals(concat(SEND_HEADER, RPING_PAYLOAD), deframe(anyCrc, false, false, 3).get(0));
    }

    @Test
    @DisplayName("RFC 5044 section 4: an empty ULPDU completes without ULPDU octets")
    void emptyUlpdu() throws Exception {
        FpduDeframer deframer = new FpduDeframer(true, false);
        byte[] fpdu = concat(hex("00 00 00 00"), Bytes.crcOnWire(hex("00 00 00 00")));
        assertEquals(FPDU_COMPLETE, deframer.advance(ByteBuffer.wrap(fpdu)));
        assertEquals(0, deframer.ulpduLength());
    }

    @Test
    void ulpduBytesAreAnnouncedEvenWithoutInput() throws Exception {
        FpduDeframer deframer = new FpduDeframer(true, false);
        assertEquals(ULPDU_BYTES, deframer.advance(ByteBuffer.wrap(SIW_ACCEPTED_FPDU, 0, 2)));
        assertEquals(ULPDU_BYTES, deframer.advance(ByteBuffer.allocate(0)));
        assertEquals(34, deframer.contiguousUlpduBytes());
        assertEquals(0, deframer.copyUlpdu(ByteBuffer.allocate(0), ByteBuffer.allocate(40), 40));
        assertThrows(IllegalArgumentException.class, () -> deframer.ulpduPlaced(ByteBuffer.allocate(35)));
    }

    @Test
    @DisplayName("RFC 5044 section 4: a hostile ULPDU_Length is only a count: we wait, holding nothing")
    void hostileLength() throws Exception {
        FpduDeframer deframer = new FpduDeframer(true, false);
        ByteBuffer input = ByteBuffer.wrap(hex("ff ff 01 02 03"));
        assertEquals(ULPDU_BYTES, deframer.advance(input));
        assertEquals(3, deframer.skipUlpdu(input, Integer.MAX_VALUE));
        assertEquals(0xFFFF - 3, deframer.ulpduRemaining());
        assertEquals(ULPDU_BYTES, deframer.advance(input));
    }

    // ---- Markers, RFC 5044 section 4.3 ------------------------------------------------------

    @Test
    @DisplayName("RFC 5044 section 4.3: the hand-written marker streams deframe, at every split")
    void markerStreams() throws Exception {
        assertArrayEquals(counting(10), deframe(LEADING_MARKER, true, true, 1).get(0));
        for (int chunk : new int[] {1, 3, 64, 5000}) {
            List<byte[]> boundary = deframe(MARKER_ON_BOUNDARY, true, true, chunk);
            assertArrayEquals(counting(502), boundary.get(0));
            assertArrayEquals(counting(4), boundary.get(1));
            assertArrayEquals(counting(505), deframe(MARKER_BEFORE_CRC, true, true, chunk).get(0));
            assertArrayEquals(counting(1200), deframe(INTERIOR_MARKERS, true, true, chunk).get(0));
            List<byte[]> header = deframe(MARKER_IN_HEADER, true, true, chunk);
            assertArrayEquals(counting(490), header.get(0));
            assertArrayEquals(counting(20), header.get(1));
        }
    }

    @Test
    @DisplayName("RFC 5044 section 4.3: the ULPDU is contiguous only up to the next marker")
    void contiguousStopsAtMarkers() throws Exception {
        FpduDeframer deframer = new FpduDeframer(true, true);
        ByteBuffer input = ByteBuffer.wrap(INTERIOR_MARKERS);
        assertEquals(ULPDU_BYTES, deframer.advance(input));
        assertEquals(506, deframer.contiguousUlpduBytes(), "512 - leading marker 4 - length 2");
        assertEquals(506, deframer.skipUlpdu(input, 1000));
        assertEquals(0, deframer.contiguousUlpduBytes());
        assertEquals(ULPDU_BYTES, deframer.advance(input));
        assertEquals(508, deframer.contiguousUlpduBytes());
    }

    @Test
    @DisplayName("RFC 5044 section 4.3: an FPDUPTR that does not point at the FPDU is a marker error")
    void wrongFpduPointer() {
        byte[] corrupt = INTERIOR_MARKERS.clone();
        corrupt[515] = (byte) 0xFD; // 508 -> 509
        ProtocolViolationException failure = assertThrows(ProtocolViolationException.class,
                () -> deframe(corrupt, false, true, 100));
        assertEquals(LLP_MPA_MARKER, failure.terminateCause());
        assertTrue(failure.getMessage().endsWith("the marker at stream offset 512 has FPDUPTR 509; the FPDU it is in"
                + " has its length field at 4, so it should be 508"), failure.getMessage());
    }

    @Test
    @DisplayName("RFC 5044 section 4.3: a leading marker must have FPDUPTR 0")
    void leadingMarkerPointer() {
        byte[] corrupt = LEADING_MARKER.clone();
        corrupt[3] = 4;
        assertEquals(LLP_MPA_MARKER, assertThrows(ProtocolViolationException.class,
                () -> deframe(corrupt, false, true, 1)).terminateCause());
    }

    @Test
    @DisplayName("RFC 5044 section 4.3: a marker's reserved bits are ignored on receive")
    void markerReservedBitsAreIgnored() throws Exception {
        byte[] unusual = MARKER_BEFORE_CRC.clone();
        unusual[512] = 0x01;
        List<byte[]> expected = deframe(MARKER_BEFORE_CRC, false, true, 9);
        List<byte[]> actual = deframe(unusual, false, true, 9);
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), actual.get(i));
        }
    }

    @Test
    void streamOffsetsMustBeAligned() {
        assertThrows(IllegalArgumentException.class, () -> new FpduDeframer(true, true, 2));
        assertThrows(IllegalArgumentException.class, () -> new FpduFramer(true, true, -4));
    }

    /** The ULPDUs of a stream fed in chunks of this size, taken with copyUlpdu. */
    static List<byte[]> deframe(byte[] stream, boolean crc, boolean markers, int chunk)
            throws ProtocolViolationException {
        FpduDeframer deframer = new FpduDeframer(crc, markers);
        List<byte[]> ulpdus = new ArrayList<>();
        ByteArrayOutputStream current = new ByteArrayOutputStream();
        ByteBuffer scratch = ByteBuffer.allocate(700);
        for (int at = 0; at < stream.length; at += chunk) {
            ByteBuffer input = ByteBuffer.wrap(stream, at, Math.min(chunk, stream.length - at));
            while (true) {
                FpduDeframer.Progress progress = deframer.advance(input);
                if (progress == NEED_INPUT) {
                    break;
                }
                if (progress == FPDU_COMPLETE) {
                    ulpdus.add(current.toByteArray());
                    current.reset();
                    continue;
                }
                scratch.clear();
                int copied = deframer.copyUlpdu(input, scratch, scratch.capacity());
                current.write(scratch.array(), 0, copied);
                if (copied == 0) {
                    break;
                }
            }
        }
        assertEquals(stream.length, deframer.streamOffset());
        return ulpdus;
    }
}
