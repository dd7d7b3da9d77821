package io.extsock.core.mpa;

import static io.extsock.core.mpa.MpaConstants.CRC_FIELD;
import static io.extsock.core.mpa.MpaConstants.MARKER_INTERVAL;
import static io.extsock.core.mpa.MpaConstants.MARKER_LENGTH;
import static io.extsock.core.mpa.MpaConstants.ULPDU_LENGTH_FIELD;
import static io.extsock.core.terminate.TerminateCause.LLP_MPA_CRC;
import static io.extsock.core.terminate.TerminateCause.LLP_MPA_MARKER;

import io.extsock.core.terminate.ProtocolViolationException;
import java.nio.ByteBuffer;

/**
 * Takes FPDUs apart for one direction of a connection (the receive side of {@link FpduFramer}),
 * built so that ULPDU octets can land where they belong without an intermediate copy.
 *
 * <p>The caller pulls: {@link #advance} consumes framing octets (markers, length field, pad,
 * CRC) from the input and says what comes next. On {@link Progress#ULPDU_BYTES} the next
 * {@link #contiguousUlpduBytes()} octets of the stream are ULPDU octets; the caller takes them
 * with {@link #copyUlpdu} (into a header scratch, say), reads them from the socket straight into
 * their destination and reports them with {@link #ulpduPlaced}, or drops them with
 * {@link #skipUlpdu}; then it calls {@code advance} again. Every way folds the octets into the
 * CRC. The input may be split at any octet; one octet at a time works.
 *
 * <p>A wrong CRC or marker is a {@link ProtocolViolationException} with {@code LLP_MPA_CRC} or
 * {@code LLP_MPA_MARKER} (RFC 5044 section 8); nothing a peer sends makes this class throw
 * anything else, wait without cause, or allocate: a ULPDU_Length is only a count.
 *
 * <p>One deframer per connection direction, used by one thread at a time.
 */
public final class FpduDeframer {

    /** What {@link #advance} found. */
    public enum Progress {
        /** The input is used up in the middle of framing octets: read more. */
        NEED_INPUT,
        /** The next octets of the stream are ULPDU octets of the current FPDU. */
        ULPDU_BYTES,
        /** An FPDU just ended and its CRC (if in use) matched. */
        FPDU_COMPLETE
    }

    private enum State { LENGTH, ULPDU, PAD, CRC }

    private final boolean crcEnabled;
    private final boolean markers;
    private final FpduCrc crc = new FpduCrc();

    private State state = State.LENGTH;
    private long position;
    private long nextMarker;
    private long lengthFieldPosition;
    private int lengthOctets;
    private int lengthValue;
    private int ulpduLength;
    private int ulpduRemaining;
    private int padRemaining;
    private int markerOctets;
    private int markerValue;
    private int crcOctets;
    private int crcReceived;
    private int crcComputed;

    /** A deframer for a stream that starts right after the peer's Request or Reply. */
    public FpduDeframer(boolean crc, boolean markers) {
        this(crc, markers, 0);
    }

    /**
     * @param crc whether CRCs were negotiated; if not, the CRC field is not looked at
     * @param markers whether the peer puts markers in this stream
     * @param initialStreamOffset octets of this stream already behind us (0 = the first octet
     *     after the peer's Request or Reply); a multiple of 4, as every FPDU boundary is
     */
    public FpduDeframer(boolean crc, boolean markers, long initialStreamOffset) {
        FpduFramer.requireFpduBoundary(initialStreamOffset);
        this.crcEnabled = crc;
        this.markers = markers;
        this.position = initialStreamOffset;
        this.nextMarker = (initialStreamOffset + MARKER_INTERVAL - 1) / MARKER_INTERVAL * MARKER_INTERVAL;
    }

    /**
     * Consumes framing octets from the input up to the next ULPDU octet or the end of an FPDU.
     *
     * @throws ProtocolViolationException {@code LLP_MPA_CRC} when an FPDU's CRC does not match,
     *     {@code LLP_MPA_MARKER} when a marker's FPDUPTR does not point at the FPDU it is in;
     *     the stream is then beyond repair. A marker's reserved bits are not checked (RFC
     *     5044 section 4.3: sent as zero, ignored on receive).
     */
    public Progress advance(ByteBuffer input) throws ProtocolViolationException {
        while (true) {
            if (markers && (markerOctets > 0 || position == nextMarker)) {
                if (!input.hasRemaining()) {
                    return Progress.NEED_INPUT;
                }
                consumeMarkerOctet(input.get() & 0xFF);
                continue;
            }
            switch (state) {
                case ULPDU:
                    return Progress.ULPDU_BYTES;
                case LENGTH:
                    if (!input.hasRemaining()) {
                        return Progress.NEED_INPUT;
                    }
                    consumeLengthOctet(input.get() & 0xFF);
                    break;
                case PAD:
                    if (padRemaining == 0) {
                        state = State.CRC;
                        break;
                    }
                    if (!input.hasRemaining()) {
                        return Progress.NEED_INPUT;
                    }
                    foldFraming(input.get() & 0xFF);
                    padRemaining--;
                    break;
                case CRC:
                    if (!input.hasRemaining()) {
                        return Progress.NEED_INPUT;
                    }
                    if (consumeCrcOctet(input.get() & 0xFF)) {
                        return Progress.FPDU_COMPLETE;
                    }
                    break;
                default:
                    throw new AssertionError(state);
            }
        }
    }

    /** The ULPDU length of the current FPDU (of the last one, once it is complete). */
    /** Whether the stream so far ends exactly where an FPDU ended (or nothing came yet). */
    public boolean atFpduBoundary() {
        return state == State.LENGTH && lengthOctets == 0;
    }

    /** Whether each FPDU's CRC is checked (CRCs were negotiated). */
    public boolean checksCrc() {
        return crcEnabled;
    }

    /** Whether the peer puts markers in this stream (every 512 octets, RFC 5044 section 4.3). */
    public boolean expectsMarkers() {
        return markers;
    }

    public int ulpduLength() {
        return ulpduLength;
    }

    /** ULPDU octets of the current FPDU not yet taken. */
    public int ulpduRemaining() {
        return state == State.ULPDU ? ulpduRemaining : 0;
    }

    /**
     * ULPDU octets that can be taken in one piece now: up to the next marker or the end of the
     * ULPDU. Zero when {@link #advance} has framing octets to consume first.
     */
    public int contiguousUlpduBytes() {
        if (state != State.ULPDU || markerOctets > 0) {
            return 0;
        }
        return markers ? (int) Math.min(ulpduRemaining, nextMarker - position) : ulpduRemaining;
    }

    /**
     * Whether the input holds the whole rest of the current FPDU, from the first octet of its
     * ULPDU to the end of its CRC, with no marker in it: then the FPDU can be checked where it
     * lies, and completes before the input runs out.
     */
    public boolean wholeFpduAhead(ByteBuffer input) {
        return state == State.ULPDU && !markers && ulpduRemaining == ulpduLength
                && input.remaining() >= ulpduLength + padRemaining + CRC_FIELD;
    }

    /**
     * Moves ULPDU octets from the input to the destination: as many as
     * {@code min(max, contiguousUlpduBytes(), input.remaining(), destination.remaining())}.
     *
     * @return the octets moved
     */
    public int copyUlpdu(ByteBuffer input, ByteBuffer destination, int max) {
        int count = Math.min(Math.min(max, contiguousUlpduBytes()), Math.min(input.remaining(), destination.remaining()));
        if (count <= 0) {
            return 0;
        }
        if (crcEnabled) {
            crc.update(input, input.position(), count);
        }
        int limit = input.limit();
        input.limit(input.position() + count);
        destination.put(input);
        input.limit(limit);
        took(count);
        return count;
    }

    /**
     * Reports ULPDU octets the caller read from the socket straight into their place: the
     * buffer's remaining octets, at most {@link #contiguousUlpduBytes()}. Its position stays.
     */
    public void ulpduPlaced(ByteBuffer placed) {
        ulpduPlaced(placed, placed.position(), placed.remaining());
    }

    /** Reports {@code length} ULPDU octets at absolute index {@code offset} of the buffer. */
    public void ulpduPlaced(ByteBuffer placed, int offset, int length) {
        if (length < 0 || length > contiguousUlpduBytes()) {
            throw new IllegalArgumentException(length + " octets placed, but only " + contiguousUlpduBytes()
                    + " ULPDU octets come next in the stream");
        }
        if (crcEnabled) {
            crc.update(placed, offset, length);
        }
        took(length);
    }

    /**
     * Consumes ULPDU octets without keeping them (still checked by the CRC): at most
     * {@code min(max, contiguousUlpduBytes(), input.remaining())}.
     *
     * @return the octets skipped
     */
    public int skipUlpdu(ByteBuffer input, int max) {
        int count = Math.min(Math.min(max, contiguousUlpduBytes()), input.remaining());
        if (count <= 0) {
            return 0;
        }
        if (crcEnabled) {
            crc.update(input, input.position(), count);
        }
        input.position(input.position() + count);
        took(count);
        return count;
    }

    /** Octets of the stream consumed so far, markers included. */
    public long streamOffset() {
        return position;
    }

    private void took(int count) {
        position += count;
        ulpduRemaining -= count;
        if (ulpduRemaining == 0) {
            state = State.PAD;
        }
    }

    private void consumeLengthOctet(int octet) {
        if (lengthOctets == 0) {
            lengthFieldPosition = position;
        }
        foldFraming(octet);
        lengthValue = lengthValue << 8 | octet;
        if (++lengthOctets == ULPDU_LENGTH_FIELD) {
            ulpduLength = lengthValue;
            ulpduRemaining = lengthValue;
            padRemaining = FpduFramer.padLength(lengthValue);
            state = lengthValue > 0 ? State.ULPDU : State.PAD;
        }
    }

    private void consumeMarkerOctet(int octet) throws ProtocolViolationException {
        foldFraming(octet);
        markerValue = markerValue << 8 | octet;
        if (++markerOctets < MARKER_LENGTH) {
            return;
        }
        long markerPosition = position - MARKER_LENGTH;
        // A marker before the length field is the FPDU's leading marker and points at itself.
        boolean leading = state == State.LENGTH && lengthOctets == 0;
        long expected = leading ? 0 : markerPosition - lengthFieldPosition;
        int pointer = markerValue & 0xFFFF;
        markerOctets = 0;
        markerValue = 0;
        nextMarker += MARKER_INTERVAL;
        if (pointer != expected) {
            throw new ProtocolViolationException(LLP_MPA_MARKER, String.format(
                    "the marker at stream offset %d has FPDUPTR %d; the FPDU it is in %s, so it should be %d",
                    markerPosition, pointer, leading ? "starts there" : "has its length field at " + lengthFieldPosition,
                    expected));
        }
    }

    /** Takes one CRC octet; true when the FPDU is complete. */
    private boolean consumeCrcOctet(int octet) throws ProtocolViolationException {
        if (crcOctets == 0) {
            crcComputed = crc.value(); // after any marker between pad and CRC, which it covers
        }
        crcReceived |= octet << (8 * crcOctets);
        position++;
        if (++crcOctets < CRC_FIELD) {
            return false;
        }
        int received = crcReceived;
        crcOctets = 0;
        crcReceived = 0;
        lengthOctets = 0;
        lengthValue = 0;
        state = State.LENGTH;
        crc.reset();
        if (crcEnabled && received != crcComputed) {
            throw new ProtocolViolationException(LLP_MPA_CRC, String.format(
                    "the FPDU at stream offset %d (ULPDU_Length %d) carries CRC32c 0x%08X (wire %02x %02x %02x %02x),"
                            + " its contents give 0x%08X",
                    lengthFieldPosition, ulpduLength, received, received & 0xFF, received >>> 8 & 0xFF,
                    received >>> 16 & 0xFF, received >>> 24, crcComputed));
        }
        return true;
    }

    private void foldFraming(int octet) {
        if (crcEnabled) {
            crc.update(octet);
        }
        position++;
    }
}
