package io.extsock.core.mpa;

import static io.extsock.core.mpa.Bytes.concat;
import static io.extsock.core.mpa.Bytes.crcOnWire;
import static io.extsock.core.mpa.Bytes.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class FpduFramerTest {

    /** An untagged last Send, MSN 1: DDP/RDMAP header of rping's first message (WIRE.md). */
    static final byte[] SEND_HEADER = hex("41 43 00000000 00000000 00000001 00000000");
    /** rping's first message: buffer 0x10000000, rkey 0x00c0ffee, size 64. */
    static final byte[] RPING_PAYLOAD = hex("0000000010000000 00c0ffee 00000040");
    /** The whole FPDU, accepted by siw. */
    static final byte[] SIW_ACCEPTED_FPDU = concat(hex("00 22"), SEND_HEADER, RPING_PAYLOAD, hex("45 e2 f1 63"));

    @Test
    @DisplayName("RFC 5044 section 4: the FPDU siw accepted, byte for byte, from header and payload slices")
    void siwAcceptedFpdu() {
        GatherWrite out = new GatherWrite(16, 256);
        ByteBuffer header = ByteBuffer.wrap(SEND_HEADER);
        ByteBuffer payload = ByteBuffer.allocateDirect(16).put(RPING_PAYLOAD).flip();
        FpduFramer framer = new FpduFramer(true, false);
        assertTrue(framer.frame(header, payload, out));
        assertEquals(0, header.position(), "the header buffer is read, not consumed");
        assertEquals(0, payload.position(), "framing does not move the payload");
        assertEquals(1, out.count(), "a small payload is copied in with its framing: one contiguous slot");
        assertArrayEquals(SIW_ACCEPTED_FPDU, Bytes.drain(out));
        assertEquals(40, framer.streamOffset());
    }

    @Test
    @DisplayName("a large direct payload (a registered region) goes out as it is, not copied")
    void largeDirectPayloadIsReferenced() {
        GatherWrite out = new GatherWrite(16, 256);
        ByteBuffer payload = ByteBuffer.allocateDirect(600);
        assertTrue(new FpduFramer(true, false).frame(ByteBuffer.wrap(SEND_HEADER), payload, out));
        assertSame(payload, out.buffers()[1]);
        assertEquals(3, out.count());
    }

    @Test
    @DisplayName("a heap payload is copied when the arena has room, referenced when not: the same octets")
    void heapPayloadCopiedOrReferenced() {
        byte[] data = new byte[1000];
        new java.util.Random(5).nextBytes(data);
        GatherWrite roomy = new GatherWrite(16, 4096);
        GatherWrite tight = new GatherWrite(16, 256);
        assertTrue(new FpduFramer(true, false).frame(ByteBuffer.wrap(SEND_HEADER), ByteBuffer.wrap(data), roomy));
        assertTrue(new FpduFramer(true, false).frame(ByteBuffer.wrap(SEND_HEADER), ByteBuffer.wrap(data), tight));
        assertEquals(1, roomy.count());
        assertEquals(3, tight.count());
        assertArrayEquals(Bytes.drain(tight), Bytes.drain(roomy));
    }

    @Test
    @DisplayName("RFC 5044 section 4: the same FPDU from a header holding the whole ULPDU, and from gathered slices")
    void siwAcceptedFpduOtherShapes() {
        GatherWrite out = new GatherWrite(16, 256);
        new FpduFramer(true, false).frame(ByteBuffer.wrap(concat(SEND_HEADER, RPING_PAYLOAD)), null, out);
        assertArrayEquals(SIW_ACCEPTED_FPDU, Bytes.drain(out));
        ByteBuffer[] slices = {ByteBuffer.wrap(RPING_PAYLOAD, 0, 5), ByteBuffer.allocate(0),
                ByteBuffer.wrap(RPING_PAYLOAD, 5, 11)};
        new FpduFramer(true, false).frame(ByteBuffer.wrap(SEND_HEADER), slices, 0, 3, out);
        assertArrayEquals(SIW_ACCEPTED_FPDU, Bytes.drain(out));
    }

    @Test
    @DisplayName("RFC 5044 section 4: without CRC the CRC field is present and zero")
    void crcOff() {
        GatherWrite out = new GatherWrite(16, 256);
        new FpduFramer(false, false).frame(ByteBuffer.wrap(SEND_HEADER), ByteBuffer.wrap(RPING_PAYLOAD), out);
        byte[] expected = SIW_ACCEPTED_FPDU.clone();
        Arrays.fill(expected, 36, 40, (byte) 0);
        assertArrayEquals(expected, Bytes.drain(out));
    }

    @Test
    @DisplayName("RFC 5044 section 4: pad to 4 with zeros, (4 - (2 + length) % 4) % 4, not counted in ULPDU_Length")
    void padding() {
        int[] pads = {2, 1, 0, 3, 2};
        for (int length = 0; length < pads.length; length++) {
            assertEquals(pads[length], FpduFramer.padLength(length));
            byte[] ulpdu = new byte[length];
            Arrays.fill(ulpdu, (byte) 0x5A);
            byte[] body = concat(new byte[] {0, (byte) length}, ulpdu, new byte[pads[length]]);
            GatherWrite out = new GatherWrite(4, 64);
            new FpduFramer(true, false).frame(ByteBuffer.wrap(ulpdu), null, out);
            assertArrayEquals(concat(body, crcOnWire(body)), Bytes.drain(out), "ULPDU length " + length);
        }
    }

    // ---- Markers, RFC 5044 section 4.3: expected octets written out by hand -----------------

    /** A ULPDU of n octets 0, 1, 2, ... */
    static byte[] counting(int n) {
        byte[] octets = new byte[n];
        for (int i = 0; i < n; i++) {
            octets[i] = (byte) i;
        }
        return octets;
    }

    static byte[] marker(int fpduPointer) {
        return new byte[] {0, 0, (byte) (fpduPointer >> 8), (byte) fpduPointer};
    }

    static byte[] slice(byte[] octets, int from, int to) {
        return Arrays.copyOfRange(octets, from, to);
    }

    /** With CRC appended over everything before it. */
    static byte[] withCrc(byte[] octets) {
        return concat(octets, crcOnWire(octets));
    }

    /** Leading marker at 0, ULPDU of 10: marker, length, ULPDU, CRC. */
    static final byte[] LEADING_MARKER = withCrc(concat(marker(0), hex("00 0a"), counting(10)));

    /**
     * FPDU 1 (ULPDU 502) fills 0..511 exactly, so the marker at 512 is FPDU 2's leading marker,
     * FPDUPTR 0, covered by FPDU 2's CRC.
     */
    static final byte[] MARKER_ON_BOUNDARY = concat(withCrc(concat(marker(0), hex("01 f6"), counting(502))),
            withCrc(concat(marker(0), hex("00 04"), counting(4), hex("00 00"))));

    /**
     * ULPDU 505: marker 0..3, length 4..5, ULPDU 6..510, pad 511, then the marker at 512 sits
     * between pad and CRC with FPDUPTR 512 - 4 = 508.
     */
    static final byte[] MARKER_BEFORE_CRC = withCrc(concat(marker(0), hex("01 f9"), counting(505), hex("00"),
            marker(508)));

    /**
     * ULPDU 1200 (pad 2), header 18 octets then payload: markers at 0 (leading), 512 (FPDUPTR
     * 508) and 1024 (FPDUPTR 1020) split the body of 2 + 1200 + 2 octets into 508, 508, 188.
     */
    static final byte[] INTERIOR_MARKERS;

    static {
        byte[] body = concat(hex("04 b0"), counting(1200), hex("00 00"));
        INTERIOR_MARKERS = withCrc(concat(marker(0), slice(body, 0, 508), marker(508), slice(body, 508, 1016),
                marker(1020), slice(body, 1016, 1204)));
    }

    /**
     * FPDU 1 (ULPDU 490) takes 0..499; FPDU 2 starts at 500 (no marker), its length at 500..501,
     * and the marker at 512 falls in its 18-octet header, 10 octets in: FPDUPTR 12.
     */
    static final byte[] MARKER_IN_HEADER = concat(withCrc(concat(marker(0), hex("01 ea"), counting(490))),
            withCrc(concat(hex("00 14"), slice(counting(20), 0, 10), marker(12), slice(counting(20), 10, 20),
                    hex("00 00"))));

    @Test
    @DisplayName("RFC 5044 section 4.3: a marker precedes the first FPDU, FPDUPTR 0, inside its CRC")
    void leadingMarker() {
        assertArrayEquals(LEADING_MARKER, frame(true, 10));
    }

    @Test
    @DisplayName("RFC 5044 section 4.3: a marker exactly on an FPDU boundary belongs to the next FPDU, FPDUPTR 0")
    void markerOnBoundary() {
        assertArrayEquals(MARKER_ON_BOUNDARY, frame(true, 502, 4));
    }

    @Test
    @DisplayName("RFC 5044 section 4.3: a marker between pad and CRC points back to the length field")
    void markerBeforeCrc() {
        assertArrayEquals(MARKER_BEFORE_CRC, frame(true, 505));
    }

    @Test
    @DisplayName("RFC 5044 section 4.3: markers inside the payload split it without a copy")
    void interiorMarkers() {
        GatherWrite out = new GatherWrite(16, 256);
        ByteBuffer payload = ByteBuffer.wrap(counting(1200), 18, 1182);
        assertTrue(new FpduFramer(true, true).frame(ByteBuffer.wrap(counting(18)), payload, out));
        assertEquals(18, payload.position());
        for (int i = 0; i < out.count(); i++) {
            ByteBuffer buffer = out.buffers()[i];
            assertTrue(buffer.isDirect() || buffer.array() == payload.array(), "payload not copied");
        }
        assertArrayEquals(INTERIOR_MARKERS, Bytes.drain(out));
    }

    @Test
    @DisplayName("RFC 5044 section 4.3: a marker inside the ULPDU header")
    void markerInHeader() {
        GatherWrite out = new GatherWrite(16, 1024);
        FpduFramer framer = new FpduFramer(true, true);
        framer.frame(ByteBuffer.wrap(counting(490)), null, out);
        framer.frame(ByteBuffer.wrap(counting(18)), ByteBuffer.wrap(counting(20), 18, 2), out);
        assertArrayEquals(MARKER_IN_HEADER, Bytes.drain(out));
    }

    /** FPDUs of these ULPDU lengths (counting octets), markers as asked, CRC on. */
    private static byte[] frame(boolean markers, int... lengths) {
        GatherWrite out = new GatherWrite(64, 4096);
        FpduFramer framer = new FpduFramer(true, markers);
        for (int length : lengths) {
            assertTrue(framer.frame(ByteBuffer.wrap(counting(length)), null, out));
        }
        return Bytes.drain(out);
    }

    // ---- Sizes ------------------------------------------------------------------------------

    @Test
    @DisplayName("RFC 5044 section 5: the largest ULPDU for one 1448-octet segment, with and without markers")
    void maxUlpduForDefaultSegment() {
        assertEquals(1442, FpduFramer.maxUlpduLength(MpaConstants.DEFAULT_MAX_FPDU_SIZE, false));
        assertEquals(1430, FpduFramer.maxUlpduLength(MpaConstants.DEFAULT_MAX_FPDU_SIZE, true));
        assertEquals(0xFFFF, FpduFramer.maxUlpduLength(1 << 20, false));
        assertEquals(2, FpduFramer.maxUlpduLength(8, false), "2 + 2 + 4: no pad needed");
        assertThrows(IllegalArgumentException.class, () -> FpduFramer.maxUlpduLength(7, false));
        assertThrows(IllegalArgumentException.class, () -> FpduFramer.maxUlpduLength(8, true));
    }

    @Test
    @DisplayName("RFC 5044 section 4.3: an FPDU of the largest ULPDU fits wherever the markers fall")
    void maxUlpduFitsAtEveryOffset() {
        SplittableRandom random = new SplittableRandom(1448);
        for (int round = 0; round < Bytes.iterations(300); round++) {
            boolean markers = random.nextBoolean();
            int maxFpdu = random.nextInt(markers ? 16 : 8, round % 10 == 0 ? 70_000 : 3000);
            int ulpdu = FpduFramer.maxUlpduLength(maxFpdu, markers);
            long start = 4L * random.nextInt(0, 1024);
            FpduFramer framer = new FpduFramer(false, markers, start);
            GatherWrite out = new GatherWrite(512, 4096);
            framer.frame(ByteBuffer.allocate(0), ByteBuffer.allocate(ulpdu), out);
            assertTrue(framer.streamOffset() - start <= maxFpdu,
                    maxFpdu + " with markers " + markers + " at " + start + ": " + (framer.streamOffset() - start));
        }
    }

    @Test
    @DisplayName("RFC 5044 section 4.3: maxSlotsPerFpdu holds the largest FPDU with markers, wherever it starts")
    void largestMarkedFpduFitsMaxSlots() {
        int ulpdu = FpduFramer.maxUlpduLength(65_544, true);
        ByteBuffer header = ByteBuffer.wrap(SEND_HEADER);
        ByteBuffer octets = ByteBuffer.allocateDirect(ulpdu - SEND_HEADER.length);
        for (int buffers : new int[] {1, 32}) {
            ByteBuffer[] payload = new ByteBuffer[buffers];
            int piece = octets.capacity() / buffers;
            for (int i = 0; i < buffers; i++) {
                int end = i == buffers - 1 ? octets.capacity() : (i + 1) * piece;
                payload[i] = octets.duplicate().position(i * piece).limit(end).slice();
            }
            for (long start = 0; start < 2 * MpaConstants.MARKER_INTERVAL; start += 4) {
                GatherWrite out = new GatherWrite(FpduFramer.maxSlotsPerFpdu(buffers), 4096);
                FpduFramer framer = new FpduFramer(true, true, start);
                assertTrue(framer.frame(header, payload, 0, buffers, out), buffers + " buffers at " + start);
                assertTrue(framer.streamOffset() - start <= 0x10000);
            }
        }
    }

    @Test
    void ulpduOver65535IsRefused() {
        GatherWrite out = new GatherWrite(4, 64);
        FpduFramer framer = new FpduFramer(true, false);
        assertThrows(IllegalArgumentException.class,
                () -> framer.frame(ByteBuffer.allocate(18), ByteBuffer.allocate(0xFFFF - 17), out));
        assertThrows(IllegalArgumentException.class, () -> framer.frame(ByteBuffer.allocate(0),
                new ByteBuffer[] {ByteBuffer.allocate(0x8000), ByteBuffer.allocate(0x8000)}, 0, 2, out));
        assertTrue(out.isEmpty());
        assertEquals(0, framer.streamOffset());
    }

    // ---- The gather write -------------------------------------------------------------------

    @Test
    void framingOctetsNextToEachOtherShareASlot() {
        GatherWrite out = new GatherWrite(4, 256);
        FpduFramer framer = new FpduFramer(true, false);
        for (int i = 0; i < 5; i++) {
            assertTrue(framer.frame(ByteBuffer.wrap(SEND_HEADER), null, out));
        }
        assertEquals(1, out.count());
        assertEquals(5 * 24, out.remaining());
    }

    @Test
    void aFullWriteSaysSoAndTakesNothing() {
        GatherWrite out = new GatherWrite(3, 256);
        FpduFramer framer = new FpduFramer(true, false);
        assertTrue(framer.frame(ByteBuffer.wrap(SEND_HEADER), ByteBuffer.wrap(RPING_PAYLOAD), out));
        assertFalse(framer.frame(ByteBuffer.wrap(SEND_HEADER), ByteBuffer.wrap(RPING_PAYLOAD), out));
        assertEquals(40, framer.streamOffset());
        assertArrayEquals(SIW_ACCEPTED_FPDU, Bytes.drain(out));
        assertTrue(framer.frame(ByteBuffer.wrap(SEND_HEADER), ByteBuffer.wrap(RPING_PAYLOAD), out));
        assertEquals(3, out.firstPending() + 3);
        assertThrows(IllegalArgumentException.class, () -> new FpduFramer(true, false).frame(ByteBuffer.allocate(300),
                null, new GatherWrite(4, 64)));
    }

    @Test
    void firstPendingFollowsAPartialWrite() {
        GatherWrite out = new GatherWrite(8, 256);
        new FpduFramer(true, false).frame(ByteBuffer.wrap(SEND_HEADER), ByteBuffer.allocateDirect(600), out);
        out.buffers()[0].position(out.buffers()[0].limit());
        out.buffers()[1].position(3);
        assertEquals(1, out.firstPending());
        assertEquals(597 + 4, out.remaining());
        out.reset();
        assertTrue(out.isEmpty());
        assertEquals(null, out.buffers()[1], "no reference to the payload is kept");
    }
}
