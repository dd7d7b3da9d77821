package io.extsock.core.mpa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.ThreadAllocations;
import io.extsock.core.terminate.ProtocolViolationException;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Steady-state framing and deframing allocate nothing per FPDU, as counted by
 * {@code com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes} (reached by method
 * handle: the test is compiled inside the io.extsock.core module, which does not read
 * jdk.management).
 */
class FpduAllocationTest {

    private static final int FPDUS = 2000;
    private static ThreadAllocations allocations;
    private static long measuringCost;

    @BeforeAll
    static void allocationCounter() throws ReflectiveOperationException {
        allocations = ThreadAllocations.counter();
        measuringCost = allocations.measuringCost();
    }

    private static long allocated() {
        return allocations.now();
    }

    @Test
    void deframingWithMarkersAndCrcAllocatesNothing() throws Exception {
        byte[] wire = wire(true, true);
        ByteBuffer input = ByteBuffer.allocateDirect(wire.length).put(wire).flip();
        ByteBuffer header = ByteBuffer.allocate(28);
        ByteBuffer placement = ByteBuffer.allocateDirect(2000);
        for (int warmUp = 0; warmUp < 20; warmUp++) {
            deframe(new FpduDeframer(true, true), input, header, placement);
        }
        FpduDeframer deframer = new FpduDeframer(true, true);
        long before = allocated();
        int fpdus = deframe(deframer, input, header, placement);
        long allocated = allocated() - before - measuringCost;
        assertEquals(FPDUS, fpdus);
        assertEquals(0, allocated, "octets allocated while deframing " + FPDUS + " FPDUs");
    }

    @Test
    void framingWithoutMarkersAllocatesNothing() {
        GatherWrite out = new GatherWrite(64, 4096);
        ByteBuffer header = ByteBuffer.allocate(18);
        ByteBuffer payload = ByteBuffer.allocateDirect(1424);
        FpduFramer framer = new FpduFramer(true, false);
        for (int warmUp = 0; warmUp < 20; warmUp++) {
            frame(framer, header, payload, out);
        }
        long before = allocated();
        long octets = frame(framer, header, payload, out);
        long allocated = allocated() - before - measuringCost;
        assertEquals(FPDUS * (payload.capacity() + 24L), octets);
        assertEquals(0, allocated, "octets allocated while framing " + FPDUS + " FPDUs");
    }

    @Test
    void framingWithMarkersAllocatesOnlyTheViewsOfSplitPayloads() {
        GatherWrite out = new GatherWrite(64, 4096);
        ByteBuffer header = ByteBuffer.allocate(18);
        ByteBuffer payload = ByteBuffer.allocateDirect(FpduFramer.maxUlpduLength(1448, true) - 18);
        FpduFramer framer = new FpduFramer(true, true);
        for (int warmUp = 0; warmUp < 20; warmUp++) {
            frame(framer, header, payload, out);
        }
        long markersBefore = framer.streamOffset() / MpaConstants.MARKER_INTERVAL;
        long before = allocated();
        frame(framer, header, payload, out);
        long allocated = allocated() - before - measuringCost;
        long markers = framer.streamOffset() / MpaConstants.MARKER_INTERVAL - markersBefore;
        assertTrue(allocated > 0, "the counter sees the views a marker split needs");
        assertTrue(allocated <= markers * 2 * 128, allocated + " octets for " + markers + " markers");
    }

    /** Frames FPDUS full-size FPDUs, "writing" each batch by moving the buffers' positions. */
    private static long frame(FpduFramer framer, ByteBuffer header, ByteBuffer payload, GatherWrite out) {
        long written = 0;
        for (int i = 0; i < FPDUS; i++) {
            payload.clear();
            if (!framer.frame(header, payload, out)) {
                written += writeOut(out);
                framer.frame(header, payload, out);
            }
            written += writeOut(out);
        }
        return written;
    }

    private static long writeOut(GatherWrite out) {
        long total = 0;
        for (int i = 0; i < out.count(); i++) {
            ByteBuffer buffer = out.buffers()[i];
            total += buffer.remaining();
            buffer.position(buffer.limit());
        }
        out.reset();
        return total;
    }

    /** Deframes the whole stream: headers copied, payload placed. Returns the FPDUs seen. */
    private static int deframe(FpduDeframer deframer, ByteBuffer input, ByteBuffer header, ByteBuffer placement)
            throws ProtocolViolationException {
        input.rewind();
        int fpdus = 0;
        while (true) {
            FpduDeframer.Progress progress = deframer.advance(input);
            if (progress == FpduDeframer.Progress.NEED_INPUT) {
                return fpdus;
            }
            if (progress == FpduDeframer.Progress.FPDU_COMPLETE) {
                fpdus++;
                header.clear();
                continue;
            }
            if (header.hasRemaining()) {
                deframer.copyUlpdu(input, header, header.remaining());
            } else {
                // As a socket read straight into the destination would.
                int count = Math.min(deframer.contiguousUlpduBytes(), input.remaining());
                int limit = input.limit();
                input.limit(input.position() + count);
                placement.clear();
                placement.put(input);
                input.limit(limit);
                deframer.ulpduPlaced(placement, 0, count);
            }
        }
    }

    private static byte[] wire(boolean crc, boolean markers) {
        SplittableRandom random = new SplittableRandom(2000);
        List<FpduStreams.Ulpdu> ulpdus = new ArrayList<>();
        for (int i = 0; i < FPDUS; i++) {
            ulpdus.add(FpduStreams.randomUlpdu(random, random.nextInt(28, 1430)));
        }
        return FpduStreams.frame(new FpduFramer(crc, markers), ulpdus, new GatherWrite(64, 4096));
    }
}
