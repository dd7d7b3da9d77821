package io.extsock.core.mpa;

import io.extsock.core.terminate.ProtocolViolationException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Random ULPDUs, framed into a wire stream and deframed again, for the property tests. */
final class FpduStreams {

    private FpduStreams() {
    }

    /** One ULPDU as the DDP layer would hand it over: a header and payload slices. */
    record Ulpdu(byte[] header, ByteBuffer[] payload, byte[] octets) {
    }

    /** A random ULPDU of {@code length} octets, its payload in buffers of every kind. */
    static Ulpdu randomUlpdu(SplittableRandom random, int length) {
        byte[] octets = new byte[length];
        random.nextBytes(octets);
        int headerLength = Math.min(length, random.nextInt(0, 29));
        int rest = length - headerLength;
        int slices = rest == 0 ? 0 : random.nextInt(1, 5);
        ByteBuffer[] payload = new ByteBuffer[slices];
        int at = headerLength;
        for (int i = 0; i < slices; i++) {
            int size = i == slices - 1 ? length - at : random.nextInt(0, length - at + 1);
            payload[i] = buffer(random, octets, at, size);
            at += size;
        }
        return new Ulpdu(java.util.Arrays.copyOf(octets, headerLength), payload, octets);
    }

    /** These octets in a heap, direct, read-only or offset buffer, positioned on them. */
    private static ByteBuffer buffer(SplittableRandom random, byte[] octets, int from, int size) {
        int padding = random.nextInt(0, 9);
        ByteBuffer buffer = switch (random.nextInt(4)) {
            case 0 -> ByteBuffer.allocate(size + 2 * padding);
            case 1 -> ByteBuffer.allocateDirect(size + 2 * padding);
            case 2 -> ByteBuffer.wrap(new byte[size + 2 * padding + 5], 5, size + 2 * padding).slice();
            default -> ByteBuffer.allocate(size + 2 * padding);
        };
        buffer.position(padding).put(octets, from, size).position(padding).limit(padding + size);
        return buffer.capacity() % 2 == 0 && !buffer.isDirect() ? buffer.asReadOnlyBuffer() : buffer;
    }

    /** The wire octets of these ULPDUs, framed through a small GatherWrite that fills up. */
    static byte[] frame(FpduFramer framer, List<Ulpdu> ulpdus, GatherWrite out) {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (Ulpdu ulpdu : ulpdus) {
            ByteBuffer header = ByteBuffer.wrap(ulpdu.header());
            if (!framer.frame(header, ulpdu.payload(), 0, ulpdu.payload().length, out)) {
                wire.writeBytes(Bytes.drain(out));
                if (!framer.frame(header, ulpdu.payload(), 0, ulpdu.payload().length, out)) {
                    throw new AssertionError("an empty GatherWrite refused an FPDU");
                }
            }
        }
        wire.writeBytes(Bytes.drain(out));
        return wire.toByteArray();
    }

    /**
     * Deframes a wire stream cut into random pieces (or single octets), taking ULPDU octets by
     * copy, by placement (as if read from the socket into place) or a mix.
     *
     * @return the complete ULPDUs; a trailing incomplete one is left out
     */
    static List<byte[]> deframe(FpduDeframer deframer, byte[] wire, SplittableRandom random, boolean octetAtATime)
            throws ProtocolViolationException {
        List<byte[]> ulpdus = new ArrayList<>();
        byte[] current = new byte[0x10000];
        int filled = 0;
        ByteBuffer destination = ByteBuffer.wrap(current);
        int at = 0;
        while (at < wire.length) {
            int size = octetAtATime ? 1 : random.nextInt(1, Math.min(wire.length - at, 3000) + 1);
            ByteBuffer input = ByteBuffer.wrap(wire, at, Math.min(size, wire.length - at));
            while (true) {
                FpduDeframer.Progress progress = deframer.advance(input);
                if (progress == FpduDeframer.Progress.NEED_INPUT) {
                    break;
                }
                if (progress == FpduDeframer.Progress.FPDU_COMPLETE) {
                    ulpdus.add(java.util.Arrays.copyOf(current, filled));
                    filled = 0;
                    continue;
                }
                int want = Math.min(input.remaining(), random.nextInt(1, deframer.contiguousUlpduBytes() + 1));
                if (want == 0) {
                    break;
                }
                if (random.nextBoolean()) {
                    destination.limit(filled + want).position(filled);
                    filled += deframer.copyUlpdu(input, destination, want);
                } else {
                    // The engine reads straight from the socket into place, then reports it.
                    input.get(current, filled, want);
                    deframer.ulpduPlaced(ByteBuffer.wrap(current), filled, want);
                    filled += want;
                }
            }
            at = input.position();
        }
        return ulpdus;
    }
}
