package io.extsock.core.rdmap;

import io.extsock.core.ddp.DdpConstants;
import io.extsock.core.mpa.FpduDeframer;
import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import java.nio.ByteBuffer;

/**
 * Reads incoming RDMAP segments out of the MPA byte stream of one connection: deframes FPDUs
 * (RFC 5044), decodes each ULPDU's DDP and RDMAP headers (RFC 5041, RFC 5040) and moves the
 * payload into the buffer its {@link SegmentSink} names, with no intermediate copy.
 *
 * <p>The caller feeds staged input with {@link #read}. For large payloads it can skip the
 * staging copy: when {@link #directCapacity()} is positive it may read that many octets from
 * the socket straight into {@link #directTarget()} and report them with {@link
 * #placedDirectly}.
 *
 * <p>With CRCs, nothing of an FPDU is believed before its CRC matched: its ULPDU is held
 * until the FPDU is complete and checked, and only then are its headers decoded and its
 * payload placed. An FPDU whose every octet is already in the input is checked where it lies
 * and placed from there; only one cut by the end of the input is copied into the hold. A
 * flipped octet anywhere (header, payload, CRC) therefore ends the connection with the MPA CRC
 * Terminate (RFC 5044 section 8) and leaves memory and streams untouched: no corrupted octet
 * is placed, and no header the network garbled is acted on (RFC 5042's view of an integrity
 * check). One exception saves the hold's copy where nobody can tell: a large Send whose
 * unchecked headers name memory of the engine's own ({@link SegmentSink#speculativeDestination}:
 * a stream's receive buffer, which nothing reads before its message completes) is read straight
 * there and checked in place; a bad CRC still ends the connection before anything acts on the
 * headers or delivers that memory. Without CRCs there is nothing to wait for: payload
 * octets go straight to their destination, and only headers are copied (up to the DDP header,
 * plus the 28-octet Read Request header or a whole Terminate).
 *
 * <p>One reader per connection, used by one thread at a time; allocation free once the hold
 * has grown to the longest FPDU the peer sends.
 */
public final class SegmentReader {

    /** Longest header copied: a Terminate is at most 18 + 4 + 2 + 18 + 28 = 70 octets. */
    private static final int HEADER_CAPACITY = 128;
    /** The longest ULPDU an FPDU's 16-bit length field can announce (RFC 5044 section 4.1). */
    private static final int MAX_ULPDU = 0xFFFF;
    /** A ULPDU at least this long is worth reading from the socket straight into the hold. */
    private static final int LARGE_ULPDU = 16 * 1024;
    /**
     * What a read into staging takes while large FPDUs come: the end of one, the headers of the
     * next and any small FPDUs between them, so that the bulk of the next large ULPDU is read
     * into the hold rather than into staging and copied. Over 4 KiB, the engine's least direct
     * read: an FPDU too short to be read directly still arrives in one read, so none takes more
     * than two.
     */
    private static final int LOOKAHEAD_WHILE_LARGE = 4 * 1024 + 512;
    /** Small FPDUs since the last large one: large ones keep coming while this is below 2. */
    private int smallSinceLarge = Integer.MAX_VALUE;

    private final FpduDeframer deframer;
    private final SegmentSink sink;
    private final RdmapSegmentHeader segment = new RdmapSegmentHeader();
    private final ByteBuffer header = ByteBuffer.allocate(HEADER_CAPACITY);

    private boolean inSegment;
    private boolean headerDecoded;
    private int headerNeeded;
    private ByteBuffer destination;
    /** With CRCs: the current FPDU's ULPDU octets, held until its CRC matched. */
    private ByteBuffer held;
    private boolean holding;
    /**
     * With CRCs, an FPDU wholly in the input: that input, and where its ULPDU starts in it, until
     * the FPDU completes (in the same {@link #read}: the input is not refilled meanwhile).
     */
    private ByteBuffer inPlace;
    private int inPlaceStart;
    /**
     * With CRCs, a large Send read straight into the engine's own memory before its CRC is
     * checked ({@link #speculate}): that place, and where the payload starts in it; null otherwise.
     */
    private ByteBuffer speculative;
    private int speculativeStart;
    /** The headers a speculation went by, decoded before the CRC could vouch for them. */
    private final RdmapSegmentHeader unverified = new RdmapSegmentHeader();
    /** A rule was broken: the stream is dead, and its framing state means nothing any more. */
    private boolean broken;

    public SegmentReader(FpduDeframer deframer, SegmentSink sink) {
        this(deframer, sink, ByteBuffer.allocate(0));
    }

    /**
     * @param hold with CRCs, where an FPDU's ULPDU waits for its CRC: a direct buffer of at
     *     least 65535 octets (the longest ULPDU) lets the socket read into it straight; a
     *     smaller one grows on the heap as needed
     */
    public SegmentReader(FpduDeframer deframer, SegmentSink sink, ByteBuffer hold) {
        this.deframer = deframer;
        this.sink = sink;
        this.held = hold;
    }

    /**
     * Consumes the input: every complete segment in it reaches the sink; a segment cut off by
     * the end of the input continues with the next call.
     *
     * @throws ProtocolViolationException when the peer broke a rule; the stream is then dead
     */
    public void read(ByteBuffer input) throws ProtocolViolationException {
        if (broken) {
            input.position(input.limit());  // what a dead stream still brings is drained, not read
            return;
        }
        try {
            readSegments(input);
        } catch (ProtocolViolationException | RuntimeException e) {
            broken = true;
            throw e;
        }
    }

    private void readSegments(ByteBuffer input) throws ProtocolViolationException {
        while (true) {
            switch (deframer.advance(input)) {
                case NEED_INPUT:
                    return;
                case FPDU_COMPLETE:
                    countFpdu(deframer.ulpduLength());
                    if (speculative != null) {
                        placeSpeculatedFpdu();
                    } else if (deframer.checksCrc()) {
                        placeVerifiedFpdu();
                    } else {
                        completeSegment();
                    }
                    break;
                case ULPDU_BYTES:
                    if (deframer.checksCrc()) {
                        if (speculative != null) {
                            if (deframer.copyUlpdu(input, speculative, Integer.MAX_VALUE) == 0 && input.hasRemaining()) {
                                throw new IllegalStateException("the place of a speculated payload is full, "
                                        + deframer.ulpduRemaining() + " octets of its ULPDU before the end");
                            }
                            if (!input.hasRemaining()) {
                                return;
                            }
                        } else if (!holding && deframer.wholeFpduAhead(input)) {
                            inPlace = input;
                            inPlaceStart = input.position();
                            deframer.skipUlpdu(input, Integer.MAX_VALUE);  // the CRC still covers them
                        } else if (!holding && speculate(input)) {
                            if (!input.hasRemaining()) {
                                return;
                            }
                        } else {
                            holdUlpduOctets(input);
                            if (!input.hasRemaining()) {
                                return;
                            }
                        }
                    } else if (!takeUlpduOctets(input)) {
                        return;
                    }
                    break;
                default:
                    throw new AssertionError();
            }
        }
    }

    /**
     * The most octets the caller's next read into its staging buffer should take: all it can,
     * except while large FPDUs come with CRCs, when only {@link #LOOKAHEAD_WHILE_LARGE}, so that
     * the bulk of each ULPDU goes straight into the hold ({@link #directCapacity()}) instead of
     * through staging. Not with markers: they cut a ULPDU into pieces of at most 512 octets, too
     * short to be read directly. A hint: any amount read is understood.
     */
    public int stagedReadLength() {
        boolean largeFpdusCome = deframer.checksCrc() && !deframer.expectsMarkers() && held.isDirect()
                && held.capacity() >= MAX_ULPDU && smallSinceLarge < 2;
        return largeFpdusCome ? LOOKAHEAD_WHILE_LARGE : Integer.MAX_VALUE;
    }

    private void countFpdu(int ulpduLength) {
        if (ulpduLength >= LARGE_ULPDU) {
            smallSinceLarge = 0;
        } else if (smallSinceLarge < Integer.MAX_VALUE) {
            smallSinceLarge++;
        }
    }

    /**
     * Payload octets of the current segment that may be read from the socket straight into
     * {@link #directTarget()} now; 0 when there are none (headers or framing come first).
     */
    public int directCapacity() {
        if (broken) {
            return 0;
        }
        if (speculative != null) {
            return Math.min(deframer.contiguousUlpduBytes(), speculative.remaining());
        }
        if (deframer.checksCrc()) {  // the rest of the ULPDU being held comes straight into the hold
            return holding && held.isDirect() ? Math.min(deframer.contiguousUlpduBytes(), held.remaining()) : 0;
        }
        if (!headerDecoded || destination == null || !destination.hasRemaining()) {
            return 0;
        }
        return deframer.contiguousUlpduBytes();
    }

    /**
     * Where direct reads go: its position is the next payload octet's place (with CRCs, the
     * next octet's place in the hold).
     */
    public ByteBuffer directTarget() {
        if (speculative != null) {
            return speculative;
        }
        return deframer.checksCrc() ? held : destination;
    }

    /** Reports {@code count} octets read straight into {@link #directTarget()} before its position. */
    public void placedDirectly(int count) {
        if (count <= 0) {
            return;
        }
        ByteBuffer target = directTarget();
        deframer.ulpduPlaced(target, target.position() - count, count);
    }

    /**
     * The rest of the current segment's payload is to be read and skipped, not placed: its
     * destination went away (a deregistered region).
     */
    public void abandonPayload() {
        destination = null;
    }

    /** Whether the octets read so far end where an FPDU ended: a stream that stops here is whole. */
    public boolean betweenFpdus() {
        return broken || deframer.atFpduBoundary();
    }

    /** The headers of the segment being read (valid from its decoding to its completion). */
    public RdmapSegmentHeader currentSegment() {
        return segment;
    }

    /**
     * The octets of the current segment's headers received so far (a read-only view), for the
     * copy a Terminate carries (RFC 5040 section 4.8); empty between segments.
     */
    public ByteBuffer currentHeaderOctets() {
        ByteBuffer copy = header.asReadOnlyBuffer();
        copy.flip();
        return inSegment ? copy : copy.limit(0);
    }

    /** The ULPDU length of the current segment (the DDP segment length). */
    public int currentSegmentLength() {
        return inSegment ? deframer.ulpduLength() : 0;
    }

    /**
     * With CRCs, at the start of a large ULPDU whose headers are at hand: when they name a Send
     * into the engine's own memory, takes the headers and the payload octets at hand and
     * leaves the rest to come straight there ({@link #directTarget()}). Nothing acts on the
     * headers until the CRC matched ({@link #placeSpeculatedFpdu}); garbled ones that fail to
     * decode, or name no such place, mean the usual hold.
     *
     * @return whether the ULPDU is read that way
     */
    private boolean speculate(ByteBuffer input) {
        int ulpdu = deframer.ulpduLength();
        int at = input.position();
        if (ulpdu < LARGE_ULPDU || deframer.expectsMarkers() || deframer.ulpduRemaining() != ulpdu
                || input.remaining() < DdpConstants.UNTAGGED_HEADER_LENGTH
                || (input.get(at) & DdpConstants.TAGGED_FLAG) != 0) {
            return false;
        }
        try {
            unverified.decode(input, at, ulpdu);
        } catch (ProtocolViolationException garbledOrRefused) {
            return false;  // the verified path names the fault, once the CRC said the octets are the peer's
        }
        if (!unverified.opcode().isSend()) {
            return false;
        }
        int headerLength = unverified.ulpPayloadOffset();  // a Send's: the untagged DDP header
        ByteBuffer place = sink.speculativeDestination(unverified);
        if (place == null || place.remaining() != ulpdu - headerLength) {
            return false;
        }
        header.clear();
        deframer.copyUlpdu(input, header, headerLength);  // the CRC covers them as they pass
        speculative = place;
        speculativeStart = place.position();
        deframer.copyUlpdu(input, place, Integer.MAX_VALUE);
        return true;
    }

    /**
     * The CRC of a speculated FPDU matched: its headers are the peer's, and now they are
     * decoded and checked as any others. The payload is already where they name, unless the
     * sink now names another place (not expected: the same headers over the same state), where
     * it is moved.
     */
    private void placeSpeculatedFpdu() throws ProtocolViolationException {
        ByteBuffer placed = speculative;
        int start = speculativeStart;
        speculative = null;
        int ulpdu = deframer.ulpduLength();
        int headerLength = header.position();
        inSegment = true;
        startSegment(ulpdu);
        if (destination != null) {
            int payload = ulpdu - headerLength;
            if (destination != placed || destination.position() != start) {
                // The sink may have moved the window of that same buffer: read it whole.
                destination.put(destination.position(), placed.duplicate().clear(), start, payload);
            }
            destination.position(destination.position() + payload);
        }
        completeSegment();
    }

    /** With CRCs: copies the ULPDU octets at hand into the hold, which grows to fit the FPDU. */
    private void holdUlpduOctets(ByteBuffer input) {
        if (!holding) {
            holding = true;
            if (held.capacity() < deframer.ulpduLength()) {  // only a hold smaller than 65535 octets grows,
                held = ByteBuffer.allocate(MAX_ULPDU);             // once, to the length field's range
            }
            held.clear().limit(deframer.ulpduLength());
        }
        deframer.copyUlpdu(input, held, Integer.MAX_VALUE);
    }

    /**
     * With CRCs: the FPDU is complete and its CRC matched: now decode its headers and place its
     * payload, as {@link #takeUlpduOctets} does as octets arrive when there is no CRC to wait for.
     */
    private void placeVerifiedFpdu() throws ProtocolViolationException {
        ByteBuffer source = inPlace != null ? inPlace : held;
        int start = inPlace != null ? inPlaceStart : 0;
        int ulpdu = inPlace != null ? deframer.ulpduLength() : holding ? held.position() : 0;
        inPlace = null;
        holding = false;
        if (ulpdu == 0) {
            completeSegment();  // names the empty ULPDU
            return;
        }
        inSegment = true;
        header.clear();
        header.put(0, source, start, Math.min(2, ulpdu)).position(Math.min(2, ulpdu));
        int needed = headerLength(ulpdu);
        header.put(0, source, start, needed).position(needed);
        startSegment(ulpdu);
        if (destination != null) {
            int payload = ulpdu - needed;
            destination.put(destination.position(), source, start + needed, payload);
            destination.position(destination.position() + payload);
        }
        completeSegment();
    }

    /** Decodes the headers copied so far and asks the sink where the payload goes, exactly its size. */
    private void startSegment(int ulpdu) throws ProtocolViolationException {
        segment.decode(header, 0, ulpdu);
        headerDecoded = true;
        destination = sink.segmentStarted(segment);
        if (destination != null && destination.remaining() != segment.ulpPayloadLength()) {
            throw new IllegalStateException("the sink gave " + destination.remaining()
                    + " octets of room for a payload of " + segment.ulpPayloadLength());
        }
    }

    /** Takes ULPDU octets from the input; false when the input is used up. */
    private boolean takeUlpduOctets(ByteBuffer input) throws ProtocolViolationException {
        if (!inSegment) {
            inSegment = true;
            headerDecoded = false;
            destination = null;
            header.clear();
            headerNeeded = Math.min(2, deframer.ulpduLength());  // the two control octets first
        }
        if (!headerDecoded) {
            deframer.copyUlpdu(input, header, headerNeeded - header.position());
            if (header.position() < headerNeeded) {
                return input.hasRemaining();
            }
            int needed = headerLength(deframer.ulpduLength());
            if (header.position() < needed) {
                headerNeeded = needed;
                return true;
            }
            startSegment(deframer.ulpduLength());
        }
        if (deframer.ulpduRemaining() == 0) {
            return true;
        }
        if (!input.hasRemaining()) {
            return false;
        }
        if (destination != null) {
            deframer.copyUlpdu(input, destination, Integer.MAX_VALUE);
        } else {
            deframer.skipUlpdu(input, Integer.MAX_VALUE);
        }
        return true;
    }

    /**
     * How many ULPDU octets the headers take, from the first two (DDP control, RDMAP control):
     * the DDP header, plus the Read Request header or the whole Terminate. Never more than the
     * ULPDU, so that a short segment reaches the decoder, which names its fault.
     */
    private int headerLength(int ulpdu) throws ProtocolViolationException {
        if (ulpdu < 2) {
            return ulpdu;
        }
        int ddpHeader = DdpConstants.headerLength(header.get(0) & 0xFF);
        int opcode = header.get(1) & RdmapConstants.OPCODE_BITS;
        int wanted = ddpHeader;
        if (opcode == RdmapOpcode.RDMA_READ_REQUEST.wireValue()) {
            wanted += RdmapConstants.READ_REQUEST_HEADER_LENGTH;
        } else if (opcode == RdmapOpcode.TERMINATE.wireValue()) {
            if (ulpdu > HEADER_CAPACITY) {
                throw new ProtocolViolationException(TerminateCause.RDMAP_CATASTROPHIC_STREAM,
                        "a Terminate of " + ulpdu + " octets; the longest possible is 70 (RFC 5040 section 4.8)");
            }
            wanted = ulpdu;
        }
        return Math.min(wanted, ulpdu);
    }

    private void completeSegment() throws ProtocolViolationException {
        if (!inSegment) {
            // As for any segment shorter than its header (see RdmapSegmentHeader).
            throw new ProtocolViolationException(TerminateCause.RDMAP_CATASTROPHIC_STREAM,
                    "an FPDU with an empty ULPDU carries no DDP header (RFC 5041 section 4.4)");
        }
        if (!headerDecoded || destination != null && destination.hasRemaining()) {
            throw new IllegalStateException("an FPDU ended inside its segment's headers or payload");
        }
        inSegment = false;
        headerDecoded = false;
        destination = null;
        sink.segmentComplete(segment);
    }
}
