package io.extsock.core.rdmap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.ddp.DdpConstants;
import io.extsock.core.ddp.MessageSequenceNumbers;
import io.extsock.core.mpa.FpduDeframer;
import io.extsock.core.mpa.FpduFramer;
import io.extsock.core.mpa.GatherWrite;
import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * With CRCs, where an FPDU waits for its check: an FPDU whose octets are all in the input is
 * checked where it lies and placed from there; one cut by the end of the input goes through the
 * hold. Either way nothing of it is placed before its CRC matched.
 */
class SegmentReaderHoldTest {

    private static final int HOLD = 65535;
    private static final byte UNTOUCHED = 0x5A;

    @Test
    void anFpduWhollyInTheInputIsPlacedWithoutTheHold() throws Exception {
        byte[] payload = payload(4000);
        ByteBuffer hold = untouchedHold();
        CollectingSink sink = new CollectingSink();

        new SegmentReader(new FpduDeframer(true, false), sink, hold).read(ByteBuffer.wrap(sendOnTheWire(payload)));

        assertEquals(1, sink.messages.size());
        assertArrayEquals(payload, sink.messages.get(0).payload);
        assertTrue(untouched(hold), "the hold was not used");
    }

    @Test
    void anFpduCutByTheEndOfTheInputGoesThroughTheHold() throws Exception {
        byte[] payload = payload(4000);
        byte[] wire = sendOnTheWire(payload);
        ByteBuffer hold = untouchedHold();
        CollectingSink sink = new CollectingSink();
        SegmentReader reader = new SegmentReader(new FpduDeframer(true, false), sink, hold);

        reader.read(ByteBuffer.wrap(wire, 0, wire.length / 2));
        assertEquals(0, sink.segmentsStarted, "nothing believed before the CRC");
        reader.read(ByteBuffer.wrap(wire, wire.length / 2, wire.length - wire.length / 2));

        assertArrayEquals(payload, sink.messages.get(0).payload);
        assertTrue(!untouched(hold), "the first half waited in the hold");
    }

    @Test
    void aDamagedFpduWhollyInTheInputPlacesNothing() throws Exception {
        byte[] wire = sendOnTheWire(payload(4000));
        wire[wire.length / 2] ^= 0x10;  // a payload octet
        CollectingSink sink = new CollectingSink();
        SegmentReader reader = new SegmentReader(new FpduDeframer(true, false), sink, untouchedHold());

        ProtocolViolationException e = assertThrows(ProtocolViolationException.class,
                () -> reader.read(ByteBuffer.wrap(wire)));

        assertEquals(TerminateCause.LLP_MPA_CRC, e.terminateCause());
        assertEquals(0, sink.segmentsStarted, "its headers were not even decoded");
    }

    @Test
    void severalWholeFpdusInOneInputAreEachPlaced() throws Exception {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        byte[][] payloads = {payload(1), payload(64), payload(3000), payload(0)};
        FpduFramer framer = new FpduFramer(true, false);
        MessageWriter writer = new MessageWriter(framer, FpduFramer.maxUlpduLength(65484, false));
        MessageSequenceNumbers msns = new MessageSequenceNumbers();
        GatherWrite gather = new GatherWrite(512, 32 * 1024);
        for (byte[] payload : payloads) {
            writer.startSend(RdmapOpcode.SEND, 0, msns.assign(DdpConstants.QN_SEND),
                    new ByteBuffer[] {ByteBuffer.wrap(payload)}, 0, 1);
            while (!writer.writeTo(gather)) {
                RdmapStreamRoundTripTest.drain(gather, wire);
            }
        }
        RdmapStreamRoundTripTest.drain(gather, wire);
        ByteBuffer hold = untouchedHold();
        CollectingSink sink = new CollectingSink();

        new SegmentReader(new FpduDeframer(true, false), sink, hold).read(ByteBuffer.wrap(wire.toByteArray()));

        assertEquals(payloads.length, sink.messages.size());
        for (int i = 0; i < payloads.length; i++) {
            assertArrayEquals(payloads[i], sink.messages.get(i).payload, "message " + i);
        }
        assertTrue(untouched(hold));
    }

    /**
     * While large FPDUs come, the engine's reads into staging take only their ends and the next
     * headers (the rest goes straight into the hold); two small FPDUs in a row end that.
     */
    @Test
    void largeFpdusShortenTheStagedReadsUntilSmallOnesFollow() throws Exception {
        SegmentReader reader = new SegmentReader(new FpduDeframer(true, false), new CollectingSink(), untouchedHold());
        assertEquals(Integer.MAX_VALUE, reader.stagedReadLength(), "nothing came yet");

        reader.read(ByteBuffer.wrap(sendOnTheWire(payload(20_000), 1)));
        assertEquals(4608, reader.stagedReadLength(), "after a large FPDU");
        reader.read(ByteBuffer.wrap(sendOnTheWire(payload(60), 2)));
        assertEquals(4608, reader.stagedReadLength(), "one small FPDU between large ones (a Write's last piece)");
        reader.read(ByteBuffer.wrap(sendOnTheWire(payload(60), 3)));
        assertEquals(Integer.MAX_VALUE, reader.stagedReadLength(), "two small ones: small messages again");
    }

    @Test
    void withoutCrcsOrADirectHoldOrWithMarkersTheStagedReadsAreNeverShortened() throws Exception {
        SegmentReader noCrc = new SegmentReader(new FpduDeframer(false, false), new CollectingSink(), untouchedHold());
        SegmentReader markers = new SegmentReader(new FpduDeframer(true, true), new CollectingSink(), untouchedHold());
        markers.read(ByteBuffer.wrap(sendOnTheWire(payload(20_000), 1, true)));
        assertEquals(Integer.MAX_VALUE, markers.stagedReadLength(), "markers: pieces too short to read directly");
        SegmentReader heapHold = new SegmentReader(new FpduDeframer(true, false), new CollectingSink());
        heapHold.read(ByteBuffer.wrap(sendOnTheWire(payload(20_000), 1)));
        assertEquals(Integer.MAX_VALUE, heapHold.stagedReadLength());
        assertEquals(Integer.MAX_VALUE, noCrc.stagedReadLength());
    }

    private static byte[] sendOnTheWire(byte[] payload, int msn) {
        return sendOnTheWire(payload, msn, false);
    }

    private static byte[] sendOnTheWire(byte[] payload, int msn, boolean markers) {
        FpduFramer framer = new FpduFramer(true, markers);
        MessageWriter writer = new MessageWriter(framer, FpduFramer.maxUlpduLength(65484, markers));
        GatherWrite gather = new GatherWrite(512, 32 * 1024);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        writer.startSend(RdmapOpcode.SEND, 0, msn, new ByteBuffer[] {ByteBuffer.wrap(payload)}, 0, 1);
        while (!writer.writeTo(gather)) {
            RdmapStreamRoundTripTest.drain(gather, wire);
        }
        RdmapStreamRoundTripTest.drain(gather, wire);
        return wire.toByteArray();
    }

    /** One Send of the payload, framed with CRC as the engine frames it (one FPDU). */
    private static byte[] sendOnTheWire(byte[] payload) {
        return sendOnTheWire(payload, 1);
    }

    private static byte[] payload(int length) {
        byte[] payload = new byte[length];
        for (int i = 0; i < length; i++) {
            payload[i] = (byte) (i * 31 + 7);
        }
        return payload;
    }

    private static ByteBuffer untouchedHold() {
        ByteBuffer hold = ByteBuffer.allocateDirect(HOLD);
        for (int i = 0; i < HOLD; i++) {
            hold.put(i, UNTOUCHED);
        }
        return hold;
    }

    private static boolean untouched(ByteBuffer hold) {
        byte[] octets = new byte[HOLD];
        hold.duplicate().clear().get(0, octets);  // the reader moves the hold's limit
        byte[] expected = new byte[HOLD];
        Arrays.fill(expected, UNTOUCHED);
        return Arrays.equals(octets, expected);
    }
}
