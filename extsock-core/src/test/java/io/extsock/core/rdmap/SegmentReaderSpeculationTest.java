package io.extsock.core.rdmap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.extsock.core.mpa.FpduDeframer;
import io.extsock.core.mpa.FpduFramer;
import io.extsock.core.mpa.GatherWrite;
import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * The reader's side of speculative placement ({@link SegmentSink#speculativeDestination}): what
 * it does with the place the unchecked headers name, whatever the sink behind it.
 */
class SegmentReaderSpeculationTest {

    private static final int PAYLOAD = 30_000;
    private static final int FIRST_READ = 4608;

    /** Offers one place by unchecked headers; after the check, names {@code checked}. */
    private static final class OfferingSink implements SegmentSink {
        final ByteBuffer offered;
        final ByteBuffer checked;
        int offers;
        int started;
        int completed;
        /** Where the reader's direct reads went once the first octets were read. */
        ByteBuffer directTargetAfterTheHeaders;

        OfferingSink(ByteBuffer offered, ByteBuffer checked) {
            this.offered = offered;
            this.checked = checked;
        }

        @Override
        public ByteBuffer speculativeDestination(RdmapSegmentHeader unverified) {
            offers++;
            return offered.clear().limit(unverified.ulpPayloadLength());
        }

        @Override
        public ByteBuffer segmentStarted(RdmapSegmentHeader header) {
            started++;
            return checked.clear().limit(header.ulpPayloadLength());
        }

        @Override
        public void segmentComplete(RdmapSegmentHeader header) {
            completed++;
        }
    }

    @Test
    void aPlaceNamedAgainAfterTheCheckKeepsThePayloadWhereItWasRead() throws Exception {
        ByteBuffer buffer = ByteBuffer.allocate(65536);
        OfferingSink sink = new OfferingSink(buffer, buffer);
        byte[] payload = payload();

        readInTwo(sink, sendOnTheWire(payload));

        assertEquals(1, sink.offers);
        assertSame(buffer, sink.directTargetAfterTheHeaders, "read straight there, not through the hold");
        assertEquals(1, sink.completed);
        assertArrayEquals(payload, head(buffer));
    }

    @Test
    void anotherPlaceNamedAfterTheCheckGetsThePayloadMoved() throws Exception {
        ByteBuffer offered = ByteBuffer.allocate(65536);
        ByteBuffer checked = ByteBuffer.allocate(65536);
        OfferingSink sink = new OfferingSink(offered, checked);
        byte[] payload = payload();

        readInTwo(sink, sendOnTheWire(payload));

        assertSame(offered, sink.directTargetAfterTheHeaders);
        assertEquals(1, sink.completed);
        assertArrayEquals(payload, head(checked));
    }

    @Test
    void aBadCrcAfterASpeculationActsOnNoHeader() throws Exception {
        ByteBuffer buffer = ByteBuffer.allocate(65536);
        OfferingSink sink = new OfferingSink(buffer, buffer);
        byte[] wire = sendOnTheWire(payload());
        wire[wire.length - 1] ^= 0x01;  // the CRC's last octet

        ProtocolViolationException e = assertThrows(ProtocolViolationException.class, () -> readInTwo(sink, wire));

        assertEquals(TerminateCause.LLP_MPA_CRC, e.terminateCause());
        assertEquals(1, sink.offers);
        assertEquals(0, sink.started, "the headers were never believed");
    }

    @Test
    void aGarbledHeaderThatStillDecodesIsNeverBelieved() throws Exception {
        ByteBuffer buffer = ByteBuffer.allocate(65536);
        OfferingSink sink = new OfferingSink(buffer, buffer);
        byte[] wire = sendOnTheWire(payload());
        wire[2 + 13] ^= 0x40;  // the MSN's last octet (after the MPA length): 0x41, out of order

        ProtocolViolationException e = assertThrows(ProtocolViolationException.class, () -> readInTwo(sink, wire));

        assertEquals(TerminateCause.LLP_MPA_CRC, e.terminateCause(), "the CRC's verdict, not DDP's");
        assertEquals(1, sink.offers, "the garbled headers decoded and were offered");
        assertSame(buffer, sink.directTargetAfterTheHeaders);
        assertEquals(0, sink.started, "and never believed");
    }

    @Test
    void smallSendsAreNeverSpeculated() throws Exception {
        ByteBuffer buffer = ByteBuffer.allocate(65536);
        OfferingSink sink = new OfferingSink(buffer, buffer);
        byte[] wire = sendOnTheWire(new byte[8000]);
        SegmentReader reader = new SegmentReader(new FpduDeframer(true, false), sink, ByteBuffer.allocateDirect(65535));

        reader.read(ByteBuffer.wrap(wire, 0, 4000));
        reader.read(ByteBuffer.wrap(wire, 4000, wire.length - 4000));

        assertEquals(0, sink.offers, "below 16 KiB the hold's copy is cheap");
        assertEquals(1, sink.completed);
    }

    /** The first octets staged, the bulk read straight into the direct target, the rest staged. */
    private static void readInTwo(SegmentSink sink, byte[] wire) throws ProtocolViolationException {
        SegmentReader reader = new SegmentReader(new FpduDeframer(true, false), sink, ByteBuffer.allocateDirect(65535));
        reader.read(ByteBuffer.wrap(wire, 0, FIRST_READ));
        if (sink instanceof OfferingSink) {
            ((OfferingSink) sink).directTargetAfterTheHeaders = reader.directTarget();
        }
        int at = FIRST_READ;
        int capacity = reader.directCapacity();
        ByteBuffer target = reader.directTarget();
        target.put(target.position(), wire, at, capacity);
        target.position(target.position() + capacity);
        reader.placedDirectly(capacity);
        at += capacity;
        reader.read(ByteBuffer.wrap(wire, at, wire.length - at));
    }

    private static byte[] head(ByteBuffer buffer) {
        byte[] octets = new byte[PAYLOAD];
        buffer.get(0, octets);
        return octets;
    }

    private static byte[] payload() {
        byte[] payload = new byte[PAYLOAD];
        for (int i = 0; i < PAYLOAD; i++) {
            payload[i] = (byte) (i * 17 + 3);
        }
        return payload;
    }

    private static byte[] sendOnTheWire(byte[] payload) {
        FpduFramer framer = new FpduFramer(true, false);
        MessageWriter writer = new MessageWriter(framer, FpduFramer.maxUlpduLength(65484, false));
        GatherWrite gather = new GatherWrite(512, 32 * 1024);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        writer.startSend(RdmapOpcode.SEND, 0, 1, new ByteBuffer[] {ByteBuffer.wrap(payload)}, 0, 1);
        while (!writer.writeTo(gather)) {
            RdmapStreamRoundTripTest.drain(gather, wire);
        }
        RdmapStreamRoundTripTest.drain(gather, wire);
        return wire.toByteArray();
    }
}
