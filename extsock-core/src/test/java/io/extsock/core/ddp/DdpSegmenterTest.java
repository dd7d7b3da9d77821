package io.extsock.core.ddp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DdpSegmenterTest {

    private static final int ITERATIONS = Boolean.getBoolean("extsock.long") ? 200_000 : 2_000;

    @Test
    void untaggedExampleOfRfc5041_5_2() {
        DdpSegmenter segmenter = new DdpSegmenter(1500).startUntagged(0x43, 0, 0, 7, 2048);
        assertTrue(segmenter.next());
        assertEquals(0, segmenter.messageOffset());
        assertEquals(1482, segmenter.payloadLength());
        assertFalse(segmenter.last());
        assertEquals(1500, segmenter.segmentLength());
        assertTrue(segmenter.next());
        assertEquals(1482, segmenter.messageOffset());
        assertEquals(566, segmenter.payloadLength());
        assertTrue(segmenter.last());
        assertFalse(segmenter.next());
    }

    @Test
    void taggedExampleOfRfc5041_5_2() {
        DdpSegmenter segmenter = new DdpSegmenter(1500).startTagged(0x40, 0xabc, 16384, 2048);
        assertTrue(segmenter.next());
        assertEquals(16384, segmenter.taggedOffset());
        assertEquals(1486, segmenter.payloadLength());
        assertFalse(segmenter.last());
        assertTrue(segmenter.next());
        assertEquals(17870, segmenter.taggedOffset());
        assertEquals(562, segmenter.payloadLength());
        assertTrue(segmenter.last());
        assertFalse(segmenter.next());
    }

    @Test
    void zeroLengthMessageIsOneSegmentWithL_rfc5041_5_2() {
        DdpSegmenter segmenter = new DdpSegmenter(1500).startTagged(0x40, 0, 0, 0);
        assertTrue(segmenter.next());
        assertEquals(0, segmenter.payloadLength());
        assertTrue(segmenter.last());
        ByteBuffer header = ByteBuffer.allocate(14);
        segmenter.putHeader(header);
        assertEquals(0xC1, header.get(0) & 0xFF, "T, L, DV=1: the zero-length Write RFC 6581 uses as RTR");
        assertFalse(segmenter.next());
    }

    @Test
    void aMessageThatFillsSegmentsExactlyEndsWithAFullSegment() {
        DdpSegmenter segmenter = new DdpSegmenter(1500).startUntagged(0x43, 0, 0, 1, 2 * 1482);
        int segments = 0;
        while (segmenter.next()) {
            segments++;
            assertEquals(1482, segmenter.payloadLength());
            assertEquals(segments == 2, segmenter.last());
        }
        assertEquals(2, segments);
    }

    @Test
    void theLargestMessageIsAllowedAndNoLarger_rfc5041_5_2() {
        DdpSegmenter segmenter = new DdpSegmenter(65535);
        segmenter.startUntagged(0x43, 0, 0, 1, 0xFFFF_FFFFL);
        assertTrue(segmenter.next());
        assertThrows(IllegalArgumentException.class, () -> segmenter.startUntagged(0x43, 0, 0, 1, 0x1_0000_0000L));
        assertThrows(IllegalArgumentException.class, () -> segmenter.startTagged(0x40, 0, 0, -1));
    }

    @Test
    void aTaggedMessageMustNotWrapTheTaggedOffset_rfc5041_7_1() {
        DdpSegmenter segmenter = new DdpSegmenter(1500);
        segmenter.startTagged(0x40, 1, -17L, 16);
        assertThrows(IllegalArgumentException.class, () -> segmenter.startTagged(0x40, 1, -16L, 16));
        assertThrows(IllegalArgumentException.class, () -> segmenter.startTagged(0x40, 1, -1L, 2));
    }

    @Test
    void theMulpduMustLeaveRoomForPayload() {
        assertThrows(IllegalArgumentException.class, () -> new DdpSegmenter(14));
        assertThrows(IllegalArgumentException.class, () -> new DdpSegmenter(65536));
        DdpSegmenter small = new DdpSegmenter(18);
        small.startTagged(0x40, 1, 0, 100);
        assertThrows(IllegalArgumentException.class, () -> small.startUntagged(0x43, 0, 0, 1, 100));
    }

    @Test
    void putHeaderNeedsACurrentSegment() {
        DdpSegmenter segmenter = new DdpSegmenter(100);
        assertThrows(IllegalStateException.class, () -> segmenter.putHeader(ByteBuffer.allocate(18)));
        segmenter.startUntagged(0x43, 0, 0, 1, 10);
        while (segmenter.next()) {
            segmenter.putHeader(ByteBuffer.allocate(18));
        }
        assertThrows(IllegalStateException.class, () -> segmenter.putHeader(ByteBuffer.allocate(18)));
    }

    /**
     * Random messages cut into segments, each serialized and parsed back: the payloads reassemble
     * to the message, MO or TO are continuous, L is on the last segment only, every segment fits
     * the MULPDU, and the untagged header fields are the message's (RFC 5041 sections 4 and 5.2).
     */
    @Test
    void randomMessagesReassembleFromTheirSegments() throws Exception {
        SplittableRandom random = new SplittableRandom(0x5eed_0001L);
        DdpSegmentHeader parsed = new DdpSegmentHeader();
        ByteBuffer wire = ByteBuffer.allocate(65535);
        for (int i = 0; i < ITERATIONS; i++) {
            int mulpdu = random.nextInt(19, random.nextBoolean() ? 200 : 9000);
            DdpSegmenter segmenter = new DdpSegmenter(mulpdu);
            byte[] message = new byte[random.nextInt(0, random.nextBoolean() ? 50 : 40_000)];
            random.nextBytes(message);
            boolean tagged = random.nextBoolean();
            int stag = random.nextInt();
            long initialTo = random.nextLong() >>> 1;
            int msn = random.nextInt();
            int queue = random.nextInt(3);
            if (tagged) {
                segmenter.startTagged(0x40, stag, initialTo, message.length);
            } else {
                segmenter.startUntagged(0x43, 0, queue, msn, message.length);
            }
            byte[] reassembled = new byte[message.length];
            long expectedOffset = 0;
            int segments = 0;
            while (segmenter.next()) {
                segments++;
                wire.clear();
                segmenter.putHeader(wire);
                wire.put(message, (int) segmenter.payloadOffset(), segmenter.payloadLength());
                wire.flip();
                assertTrue(wire.remaining() <= mulpdu, "segment fits the MULPDU");
                parsed.parse(wire);
                assertEquals(tagged, parsed.tagged());
                assertEquals(segmenter.last(), parsed.last());
                assertEquals(segmenter.payloadOffset() + parsed.payloadLength() == message.length, parsed.last(),
                        "L exactly on the last segment");
                if (!parsed.last()) {
                    assertEquals(mulpdu, parsed.segmentLength(), "every segment but the last is full");
                }
                if (tagged) {
                    assertEquals(stag, parsed.stag());
                    assertEquals(initialTo + expectedOffset, parsed.taggedOffset(), "TO continuous");
                } else {
                    assertEquals(queue, parsed.queueNumber());
                    assertEquals(msn, parsed.messageSequenceNumber(), "same MSN in every segment");
                    assertEquals(expectedOffset, parsed.messageOffset(), "MO continuous");
                }
                wire.get(parsed.headerLength(), reassembled, (int) expectedOffset, parsed.payloadLength());
                expectedOffset += parsed.payloadLength();
            }
            assertEquals(message.length, expectedOffset);
            assertEquals(Math.max(1, (message.length + mulpdu - parsed.headerLength() - 1)
                    / (mulpdu - parsed.headerLength())), segments);
            assertArrayEquals(message, reassembled);
        }
    }
}
