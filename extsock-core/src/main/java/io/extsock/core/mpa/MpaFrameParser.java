package io.extsock.core.mpa;

import static io.extsock.core.mpa.MpaConstants.ENHANCED_SETUP_LENGTH;
import static io.extsock.core.mpa.MpaConstants.FLAGS_OFFSET;
import static io.extsock.core.mpa.MpaConstants.FLAG_ENHANCED;
import static io.extsock.core.mpa.MpaConstants.FRAME_HEADER_LENGTH;
import static io.extsock.core.mpa.MpaConstants.KEY_LENGTH;
import static io.extsock.core.mpa.MpaConstants.MAX_FRAME_LENGTH;
import static io.extsock.core.mpa.MpaConstants.MAX_PRIVATE_DATA;
import static io.extsock.core.mpa.MpaConstants.PRIVATE_DATA_LENGTH_OFFSET;
import static io.extsock.core.mpa.MpaConstants.REVISION_1;
import static io.extsock.core.mpa.MpaConstants.REVISION_2;
import static io.extsock.core.mpa.MpaConstants.REVISION_OFFSET;
import static io.extsock.core.terminate.TerminateCause.LLP_MPA_INVALID_REQUEST_REPLY;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Reads one Request or Reply frame from a byte stream split anywhere. Consumes exactly the
 * frame's octets: what follows it (FPDUs the peer sent right behind its frame) stays in the
 * input for the deframer.
 *
 * <p>Each header field is checked as soon as its octets are in, so a peer that is not
 * speaking MPA fails on its first wrong octet instead of leaving us waiting for 20, and a
 * hostile private data length fails before any private data is awaited. The parser holds one
 * 532-octet array, the largest legal frame, and allocates nothing else until the frame is
 * complete.
 */
public final class MpaFrameParser {

    /** How many received octets a key mismatch message shows. */
    private static final int SHOWN_OCTETS = KEY_LENGTH;

    private final MpaFrameType expected;
    private final byte[] frame = new byte[MAX_FRAME_LENGTH];
    private int received;
    private int frameLength = FRAME_HEADER_LENGTH;
    private MpaFrame result;
    private boolean failed;

    /** A parser for the frame this side waits for: a Responder expects a REQUEST. */
    public MpaFrameParser(MpaFrameType expected) {
        this.expected = expected;
    }

    /**
     * Consumes octets of the frame from the input.
     *
     * @return the frame once its last octet is in, null while more are needed; after that the
     *     same frame, consuming nothing
     * @throws MpaSetupException with {@code LLP_MPA_INVALID_REQUEST_REPLY} at the first octet that
     *     breaks a rule of RFC 5044 section 7.1.1 or RFC 6581 section 6.1
     */
    public MpaFrame parse(ByteBuffer input) throws MpaSetupException {
        if (failed) {
            throw new IllegalStateException("this parser already rejected the peer's frame");
        }
        try {
            while (result == null && input.hasRemaining()) {
                if (received < FRAME_HEADER_LENGTH) {
                    acceptHeaderOctet(input);
                } else {
                    int count = Math.min(frameLength - received, input.remaining());
                    input.get(frame, received, count);
                    received += count;
                }
                if (received == frameLength) {
                    result = MpaFrame.of(expected, frame[FLAGS_OFFSET] & 0xFF, frame[REVISION_OFFSET] & 0xFF,
                            PrivateData.adopt(Arrays.copyOfRange(frame, FRAME_HEADER_LENGTH, frameLength)));
                }
            }
            return result;
        } catch (MpaSetupException e) {
            failed = true;
            throw e;
        }
    }

    /** Octets of the frame consumed so far. */
    public int octetsReceived() {
        return received;
    }

    private void acceptHeaderOctet(ByteBuffer input) throws MpaSetupException {
        int index = received;
        int octet = input.get(input.position()) & 0xFF;
        if (index < KEY_LENGTH && octet != expected.keyByte(index)) {
            throw wrongKey(input);
        }
        frame[index] = (byte) octet;
        input.position(input.position() + 1);
        received++;
        if (index == REVISION_OFFSET && octet != REVISION_1 && octet != REVISION_2) {
            throw invalid(MpaFailureReason.UNSUPPORTED_REVISION, "the " + expected + " has MPA revision " + octet
                    + "; we speak revision 1 (RFC 5044) and 2 (RFC 6581)");
        }
        if (index == PRIVATE_DATA_LENGTH_OFFSET + 1) {
            checkPrivateDataLength((frame[PRIVATE_DATA_LENGTH_OFFSET] & 0xFF) << 8 | octet);
        }
    }

    private void checkPrivateDataLength(int length) throws MpaSetupException {
        if (length > MAX_PRIVATE_DATA) {
            throw invalid(MpaFailureReason.MALFORMED, "the " + expected + " announces " + length
                    + " octets of private data; RFC 5044 section 7.1.1 allows at most " + MAX_PRIVATE_DATA);
        }
        boolean enhanced = frame[REVISION_OFFSET] == REVISION_2 && (frame[FLAGS_OFFSET] & FLAG_ENHANCED) != 0;
        if (enhanced && length < ENHANCED_SETUP_LENGTH) {
            throw invalid(MpaFailureReason.MALFORMED, "the " + expected + " sets H (enhanced setup) but carries "
                    + length + " octets of private data, too few for the IRD and ORD words (RFC 6581 section 7.1)");
        }
        frameLength = FRAME_HEADER_LENGTH + length;
    }

    private MpaSetupException wrongKey(ByteBuffer input) {
        byte[] seen = octetsSeen(input);
        if (startsLikeKey(seen, expected.other())) {
            return invalid(MpaFailureReason.UNEXPECTED_FRAME, "expected an MPA " + expected
                    + " (key \"" + expected.key() + "\") but the peer sent an MPA " + expected.other()
                    + ": " + Printable.describe(seen));
        }
        return invalid(MpaFailureReason.NOT_MPA_PEER, "expected an MPA " + expected + " starting with \""
                + expected.key() + "\" but the first octets received were " + Printable.describe(seen)
                + ": " + Printable.diagnose(seen, expected));
    }

    /** What came so far plus, for the message only, what the input holds behind it. */
    private byte[] octetsSeen(ByteBuffer input) {
        int ahead = Math.min(input.remaining(), Math.max(SHOWN_OCTETS - received, 1));
        byte[] seen = Arrays.copyOf(frame, received + ahead);
        input.get(input.position(), seen, received, ahead);
        return seen;
    }

    private static boolean startsLikeKey(byte[] seen, MpaFrameType type) {
        for (int i = 0; i < Math.min(seen.length, KEY_LENGTH); i++) {
            if ((seen[i] & 0xFF) != type.keyByte(i)) {
                return false;
            }
        }
        return true;
    }

    private static MpaSetupException invalid(MpaFailureReason reason, String detail) {
        return new MpaSetupException(reason, LLP_MPA_INVALID_REQUEST_REPLY, detail);
    }
}
