package io.extsock.core.mpa;

import static io.extsock.core.mpa.MpaConstants.CRC_FIELD;
import static io.extsock.core.mpa.MpaConstants.FPDU_ALIGNMENT;
import static io.extsock.core.mpa.MpaConstants.MARKER_INTERVAL;
import static io.extsock.core.mpa.MpaConstants.MARKER_LENGTH;
import static io.extsock.core.mpa.MpaConstants.MAX_ULPDU_LENGTH;
import static io.extsock.core.mpa.MpaConstants.MIN_FPDU_LENGTH;
import static io.extsock.core.mpa.MpaConstants.ULPDU_LENGTH_FIELD;

import java.nio.ByteBuffer;

/**
 * Frames ULPDUs into FPDUs for one direction of a connection, RFC 5044 section 4:
 *
 * <pre>
 * +--------------+----------------------------------+-----------+---------+
 * | ULPDU_Length | ULPDU: DDP/RDMAP header, payload | pad to 4  | CRC     |
 * | 16 bits      | ULPDU_Length octets              | 0-3 zeros | 32 bits |
 * +--------------+----------------------------------+-----------+---------+
 * </pre>
 *
 * The CRC field is always there: CRC32c over everything before it in the FPDU, markers
 * included, or zero when CRC is off.
 *
 * <p>With markers (section 4.3) a 4-octet marker {@code 0x0000 | FPDUPTR} goes at every 512th
 * octet of the stream, counted from the first octet after our Request or Reply, markers
 * included. FPDUPTR is the distance back to the FPDU's length field; a marker right at an FPDU
 * boundary belongs to the FPDU it precedes and points at it with 0. A marker can fall anywhere
 * in the FPDU, also between pad and CRC, and the CRC covers it; ULPDU_Length and pad do not
 * count it. Because FPDUs and markers are multiples of 4 octets, markers never split the length
 * field or the CRC.
 *
 * <p>The framing octets and the ULPDU header (a copy of a few dozen octets, cheaper than a slot
 * of its own) go into the {@link GatherWrite}'s scratch arena. Without markers, so do heap
 * payloads and small direct ones, when the arena has room: the JDK would copy a heap buffer
 * into a direct one for the system call anyway, and a contiguous FPDU is one iovec instead of
 * three. Large direct payloads (registered regions) are referenced as they are. Without
 * markers, framing allocates nothing. A marker that falls inside a payload buffer splits it
 * into views (one small object per split, no copy of the data).
 *
 * <p>One framer per connection direction, used by one thread at a time.
 */
public final class FpduFramer {

    /** Direct payloads up to this many octets are copied into the arena (see {@link #worthCopying}). */
    private static final int SMALL_DIRECT_PAYLOAD = 512;
    /** Arena room to keep after a copied payload for the rest of its FPDU: pad and CRC. */
    private static final int TAIL_FRAMING_MAX = 3 + CRC_FIELD;
    /**
     * The most markers one FPDU can hold: with markers an FPDU stays within 64 KiB (FPDUPTR is
     * 16 bits, RFC 5044 section 4.3), and 64 KiB of stream meets at most 0x10000 / 512 + 1
     * marker positions.
     */
    static final int MAX_MARKERS_PER_FPDU = 0x10000 / MARKER_INTERVAL + 1;

    private final boolean crcEnabled;
    private final boolean markers;
    private final FpduCrc crc = new FpduCrc();
    private long position;
    private long lengthFieldPosition;
    private int crcFoldedUpTo;

    /** A framer for a stream that starts right after our Request or Reply. */
    public FpduFramer(boolean crc, boolean markers) {
        this(crc, markers, 0);
    }

    /**
     * @param streamOffset octets this direction carried since our Request or Reply, markers
     *     included; a multiple of 4, as every FPDU boundary is
     */
    public FpduFramer(boolean crc, boolean markers, long streamOffset) {
        requireFpduBoundary(streamOffset);
        this.crcEnabled = crc;
        this.markers = markers;
        this.position = streamOffset;
    }

    /** Pad octets after a ULPDU of this length: {@code (4 - (2 + length) % 4) % 4}. */
    public static int padLength(int ulpduLength) {
        return (FPDU_ALIGNMENT - (ULPDU_LENGTH_FIELD + ulpduLength) % FPDU_ALIGNMENT) % FPDU_ALIGNMENT;
    }

    /**
     * The longest ULPDU whose FPDU, markers included wherever it starts, takes at most
     * {@code maxFpduSize} octets: what DDP may put in one segment (its MULPDU).
     *
     * @throws IllegalArgumentException if not even an empty ULPDU fits
     */
    public static int maxUlpduLength(int maxFpduSize, boolean markers) {
        // Markers: an FPDU of n octets can meet ceil(n / 512) marker positions. FPDUPTR is 16
        // bits, so an FPDU with markers must stay within 64 KiB.
        int size = markers ? Math.min(maxFpduSize, 0x10000) : maxFpduSize;
        int markerRoom = markers ? MARKER_LENGTH * ((size + MARKER_INTERVAL - 1) / MARKER_INTERVAL) : 0;
        int room = size - CRC_FIELD - markerRoom;
        int ulpdu = room - room % FPDU_ALIGNMENT - ULPDU_LENGTH_FIELD;
        if (maxFpduSize < MIN_FPDU_LENGTH || ulpdu < 0) {
            throw new IllegalArgumentException("an FPDU of at most " + maxFpduSize + " octets"
                    + (markers ? " with markers" : "") + " cannot carry any ULPDU");
        }
        return Math.min(ulpdu, MAX_ULPDU_LENGTH);
    }

    /**
     * The most {@link GatherWrite} slots one FPDU can take whose payload comes in up to {@code
     * payloadBuffers} buffers, whatever its size and stream offset. A gather with fewer slots
     * may refuse an FPDU even when empty: with markers a 64 KiB FPDU takes nearly 260, as each
     * marker inside a payload splits it and takes a slot of its own.
     */
    public static int maxSlotsPerFpdu(int payloadBuffers) {
        return slotsNeeded(payloadBuffers, MAX_MARKERS_PER_FPDU);
    }

    /** Octets this direction carried so far, markers included: where the next FPDU starts. */
    public long streamOffset() {
        return position;
    }

    /** Frames a ULPDU with one payload buffer (or none: null or empty). */
    public boolean frame(ByteBuffer ulpduHeader, ByteBuffer payload, GatherWrite out) {
        int payloadLength = payload == null ? 0 : payload.remaining();
        int buffers = payloadLength == 0 ? 0 : 1;
        if (!begin(ulpduHeader, payloadLength, buffers, out)) {
            return false;
        }
        if (payloadLength > 0) {
            emitPayload(payload, out);
        }
        finish(ulpduHeader.remaining() + payloadLength, out);
        return true;
    }

    /**
     * Frames one FPDU whose ULPDU is the header's remaining octets followed by those of
     * {@code payload[offset .. offset + length)}. Neither the header's nor the payload buffers'
     * positions are read past or moved here; the payload buffers may go into the write as they
     * are, so the channel moves their positions: leave them alone until {@code out} is reset.
     *
     * @return false, with nothing added, if {@code out} has too few slots or scratch octets
     *     left: write it out, reset it and frame again
     * @throws IllegalArgumentException if the ULPDU exceeds 65535 octets (or, with markers, the
     *     FPDU 64 KiB), or if the FPDU would not fit even an empty {@code out}
     */
    public boolean frame(ByteBuffer ulpduHeader, ByteBuffer[] payload, int offset, int length, GatherWrite out) {
        long payloadLength = 0;
        int buffers = 0;
        for (int i = offset; i < offset + length; i++) {
            payloadLength += payload[i].remaining();
            buffers += payload[i].hasRemaining() ? 1 : 0;
        }
        if (payloadLength > MAX_ULPDU_LENGTH) {
            throw tooLong(ulpduHeader.remaining() + payloadLength);
        }
        if (!begin(ulpduHeader, (int) payloadLength, buffers, out)) {
            return false;
        }
        for (int i = offset; i < offset + length; i++) {
            if (payload[i].hasRemaining()) {
                emitPayload(payload[i], out);
            }
        }
        finish(ulpduHeader.remaining() + (int) payloadLength, out);
        return true;
    }

    /** Checks room, then writes any leading marker, the length field and the header. */
    private boolean begin(ByteBuffer header, int payloadLength, int payloadBuffers, GatherWrite out) {
        long ulpduLength = (long) header.remaining() + payloadLength;
        if (ulpduLength > MAX_ULPDU_LENGTH) {
            throw tooLong(ulpduLength);
        }
        int ulpdu = (int) ulpduLength;
        int body = ULPDU_LENGTH_FIELD + ulpdu + padLength(ulpdu);
        int markerCount = markers ? markersIn(position, body) : 0;
        if (markers && body + MARKER_LENGTH * markerCount > 0xFFFF) {
            throw new IllegalArgumentException("an FPDU of " + (body + MARKER_LENGTH * markerCount + CRC_FIELD)
                    + " octets with markers is too long for the 16-bit FPDUPTR");
        }
        int slots = slotsNeeded(payloadBuffers, markerCount);
        int scratch = body - payloadLength + CRC_FIELD + MARKER_LENGTH * markerCount;
        if (slots > out.freeSlots() || scratch > out.freeScratch()) {
            if (out.isEmpty()) {
                throw new IllegalArgumentException("one FPDU needs " + slots + " slots and " + scratch
                        + " scratch octets; the GatherWrite has " + out.capacity() + " and " + out.scratchCapacity());
            }
            return false;
        }
        crc.reset();
        crcFoldedUpTo = out.scratchPosition();
        if (markers && position % MARKER_INTERVAL == 0) {
            putMarker(0, out);
        }
        lengthFieldPosition = position;
        putFraming(ulpdu >>> 8, out);
        putFraming(ulpdu & 0xFF, out);
        for (int i = header.position(); i < header.limit(); i++) {
            putFraming(header.get(i), out);
        }
        return true;
    }

    /** Writes pad, any marker before the CRC, and the CRC. */
    private void finish(int ulpduLength, GatherWrite out) {
        for (int i = padLength(ulpduLength); i > 0; i--) {
            putFraming(0, out);
        }
        if (markers && position % MARKER_INTERVAL == 0) {
            putMarker((int) (position - lengthFieldPosition), out);
        }
        foldScratch(out);
        int value = crcEnabled ? crc.value() : 0;
        for (int shift = 0; shift < 32; shift += 8) {
            out.putScratch(value >>> shift);
        }
        position += CRC_FIELD;
        out.commitScratch();
    }

    private void emitPayload(ByteBuffer payload, GatherWrite out) {
        int from = payload.position();
        int end = payload.limit();
        while (from < end) {
            if (markers && position % MARKER_INTERVAL == 0) {
                putMarker((int) (position - lengthFieldPosition), out);
            }
            int count = markers ? (int) Math.min(end - from, MARKER_INTERVAL - position % MARKER_INTERVAL) : end - from;
            if (!markers && worthCopying(payload, count) && out.freeScratch() >= count + TAIL_FRAMING_MAX) {
                out.copyPayload(payload, from, count);  // now framing octets for the CRC's fold
                position += count;
                from += count;
                continue;
            }
            foldScratch(out);
            if (crcEnabled) {
                crc.update(payload, from, count);
            }
            boolean whole = from == payload.position() && count == end - from;
            // Split by a marker: a view of the part, a small object but no copy of the data.
            out.addPayload(whole ? payload : payload.duplicate().limit(from + count).position(from));
            crcFoldedUpTo = out.scratchPosition();
            position += count;
            from += count;
        }
    }

    /** Whether payload octets go into the arena rather than by reference (see GatherWrite#copyPayload). */
    private static boolean worthCopying(ByteBuffer payload, int count) {
        return !payload.isDirect() || count <= SMALL_DIRECT_PAYLOAD;
    }

    /** A framing octet, preceded by the marker due at this position, if any. */
    private void putFraming(int octet, GatherWrite out) {
        if (markers && position % MARKER_INTERVAL == 0) {
            putMarker((int) (position - lengthFieldPosition), out);
        }
        out.putScratch(octet);
        position++;
    }

    private void putMarker(int fpduPointer, GatherWrite out) {
        out.putScratch(0);
        out.putScratch(0);
        out.putScratch(fpduPointer >>> 8);
        out.putScratch(fpduPointer & 0xFF);
        position += MARKER_LENGTH;
    }

    /** Folds framing octets written since the last fold into the CRC, in stream order. */
    private void foldScratch(GatherWrite out) {
        int upTo = out.scratchPosition();
        if (crcEnabled) {
            crc.update(out.arena(), crcFoldedUpTo, upTo - crcFoldedUpTo);
        }
        crcFoldedUpTo = upTo;
    }

    /** Slots for the framing before and after the payload, the payload buffers and the markers. */
    private static int slotsNeeded(int payloadBuffers, int markerCount) {
        // Each marker can add a scratch slot and split a payload buffer in two.
        return 2 + payloadBuffers + 2 * markerCount;
    }

    /** Markers in an FPDU starting at {@code start} whose length field, ULPDU and pad take {@code body}. */
    static int markersIn(long start, int body) {
        long at = start;
        int count = 0;
        int left = body;
        while (left > 0) {
            if (at % MARKER_INTERVAL == 0) {
                count++;
                at += MARKER_LENGTH;
            }
            int step = (int) Math.min(left, MARKER_INTERVAL - at % MARKER_INTERVAL);
            at += step;
            left -= step;
        }
        return at % MARKER_INTERVAL == 0 ? count + 1 : count;
    }

    /** Checks a stream offset given to a framer or deframer: FPDU boundaries are 4-aligned. */
    static void requireFpduBoundary(long streamOffset) {
        if (streamOffset < 0 || streamOffset % FPDU_ALIGNMENT != 0) {
            throw new IllegalArgumentException("stream offset must be a non-negative multiple of 4, not "
                    + streamOffset);
        }
    }

    private static IllegalArgumentException tooLong(long ulpduLength) {
        return new IllegalArgumentException("a ULPDU of " + ulpduLength + " octets exceeds the 16-bit ULPDU_Length");
    }
}
