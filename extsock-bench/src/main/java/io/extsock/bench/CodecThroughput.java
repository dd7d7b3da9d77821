package io.extsock.bench;

import io.extsock.core.mpa.FpduDeframer;
import io.extsock.core.mpa.FpduFramer;
import io.extsock.core.mpa.GatherWrite;
import io.extsock.core.rdmap.MessageWriter;
import io.extsock.core.rdmap.RdmapSegmentHeader;
import io.extsock.core.rdmap.SegmentReader;
import io.extsock.core.rdmap.SegmentSink;
import io.extsock.core.terminate.ProtocolViolationException;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The receive side of the codecs on a stream already in memory: MPA deframing with CRC32c,
 * DDP/RDMAP header decoding and placement of each 64 KiB RDMA Write into its destination
 * buffer (one copy, as from the engine's staging buffer), for FPDUs of 1448 octets (one TCP
 * segment) and 16 KiB. {@link #crc32c} computes CRC32C alone over the same octets: the floor.
 * One operation processes the whole encoded stream (about 2 MiB).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CodecThroughput {

    /** Messages in the stream: 64 KiB RDMA Writes. */
    static final int MESSAGES = 32;
    static final int MESSAGE_BYTES = 64 * 1024;
    /** What one read of the socket brings at most: the engine's staging buffer. */
    static final int STAGING_BYTES = 64 * 1024;

    @Param({"1448", "16384"})
    int maxFpduSize;

    private ByteBuffer stream;
    private final ByteBuffer destination = ByteBuffer.allocateDirect(MESSAGE_BYTES);
    /** Where each FPDU waits for its CRC, as a connection's 64 KiB block of direct memory. */
    private final ByteBuffer fpduHold = ByteBuffer.allocateDirect(64 * 1024);
    private final CRC32C crc = new CRC32C();

    /** Octets of the stream, framing included; set up once per run. */
    static long streamBytes;

    @Setup(Level.Trial)
    public void encode() {
        FpduFramer framer = new FpduFramer(true, false);
        MessageWriter writer = new MessageWriter(framer, FpduFramer.maxUlpduLength(maxFpduSize, false));
        GatherWrite gather = new GatherWrite(1024, 256 * 1024);
        ByteBuffer payload = ByteBuffer.allocateDirect(MESSAGE_BYTES);
        byte[] random = new byte[MESSAGE_BYTES];
        new SplittableRandom(1).nextBytes(random);
        payload.put(random).flip();
        ByteBuffer out = ByteBuffer.allocateDirect(MESSAGES * (MESSAGE_BYTES + 4096));
        for (int i = 0; i < MESSAGES; i++) {
            writer.startWrite(0x100 + i, 0, new ByteBuffer[] {payload.duplicate()}, 0, 1);
            while (!writer.writeTo(gather)) {
                drain(gather, out);
            }
            drain(gather, out);
        }
        stream = out.flip();
        streamBytes = stream.remaining();
    }

    private static void drain(GatherWrite gather, ByteBuffer out) {
        for (int i = 0; i < gather.count(); i++) {
            out.put(gather.buffers()[i]);
        }
        gather.reset();
    }

    /**
     * Deframe, check the CRC, decode headers and place every payload octet, the stream fed in
     * 64 KiB pieces as the engine's staging buffer takes it from the socket (an FPDU cut by a
     * piece's end waits in the hold).
     */
    @Benchmark
    public long deframeCheckParsePlace() throws ProtocolViolationException {
        Placement sink = new Placement(destination);
        SegmentReader reader = new SegmentReader(new FpduDeframer(true, false), sink, fpduHold.clear());
        ByteBuffer input = stream.duplicate();
        int end = input.limit();
        while (input.position() < end) {
            input.limit(Math.min(end, input.position() + STAGING_BYTES));
            reader.read(input);
        }
        return sink.placedSegments;
    }

    /** CRC32C alone over the same octets. */
    @Benchmark
    public long crc32c() {
        crc.reset();
        crc.update(stream.duplicate());
        return crc.getValue();
    }

    /** Places each segment's payload at its tagged offset in one destination buffer. */
    private static final class Placement implements SegmentSink {
        private final ByteBuffer destination;
        long placedSegments;

        Placement(ByteBuffer destination) {
            this.destination = destination;
        }

        @Override
        public ByteBuffer segmentStarted(RdmapSegmentHeader header) {
            int offset = (int) header.ddp().taggedOffset();
            return destination.limit(offset + header.ulpPayloadLength()).position(offset);
        }

        @Override
        public void segmentComplete(RdmapSegmentHeader header) {
            placedSegments++;
        }
    }
}
