package io.extsock.core.mpa;

import static io.extsock.core.mpa.MpaConstants.ENHANCED_SETUP_LENGTH;
import static io.extsock.core.mpa.MpaConstants.FLAGS_RESERVED_MASK;
import static io.extsock.core.mpa.MpaConstants.FLAG_CRC;
import static io.extsock.core.mpa.MpaConstants.FLAG_ENHANCED;
import static io.extsock.core.mpa.MpaConstants.FLAG_MARKERS;
import static io.extsock.core.mpa.MpaConstants.FLAG_REJECT;
import static io.extsock.core.mpa.MpaConstants.FRAME_HEADER_LENGTH;
import static io.extsock.core.mpa.MpaConstants.MAX_PRIVATE_DATA;
import static io.extsock.core.mpa.MpaConstants.REVISION_2;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.Optional;

/**
 * An MPA Request or Reply frame, RFC 5044 section 7.1.1, exactly as sent or received:
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------------------------------------------------------+
 * |  Key: "MPA ID Req Frame" or "MPA ID Rep Frame" (16 octets)    |
 * +-+-+-+-+-------+---------------+-------------------------------+
 * |M|C|R|H|  Res  |      Rev      |           PD_Length           |
 * +-+-+-+-+-------+---------------+-------------------------------+
 * |  Private Data (PD_Length octets, at most 512)                 |
 * +---------------------------------------------------------------+
 * </pre>
 *
 * H is RFC 6581's enhanced-setup bit, taken from RFC 5044's reserved field; the four bits
 * still reserved are kept as received (Linux siw echoes them in its Reply).
 */
public final class MpaFrame {

    private final MpaFrameType type;
    private final int flags;
    private final int revision;
    private final PrivateData privateData;

    private MpaFrame(MpaFrameType type, int flags, int revision, PrivateData privateData) {
        this.type = Objects.requireNonNull(type, "type");
        this.flags = flags;
        this.revision = revision;
        this.privateData = Objects.requireNonNull(privateData, "privateData");
    }

    /**
     * A frame with this flags octet (M, C, R, H and reserved bits together), revision octet
     * and private data (at most 512 octets).
     */
    public static MpaFrame of(MpaFrameType type, int flags, int revision, PrivateData privateData) {
        if (flags < 0 || flags > 0xFF) {
            throw new IllegalArgumentException("flags must be one octet, not " + flags);
        }
        if (revision < 0 || revision > 0xFF) {
            throw new IllegalArgumentException("revision must be one octet, not " + revision);
        }
        if (privateData.length() > MAX_PRIVATE_DATA) {
            throw new IllegalArgumentException("private data is " + privateData.length()
                    + " octets, RFC 5044 section 7.1.1 allows at most " + MAX_PRIVATE_DATA);
        }
        return new MpaFrame(type, flags, revision, privateData);
    }

    /**
     * An enhanced (RFC 6581) frame: revision 2, H set, the setup words followed by the ULP's
     * private data (at most 508 octets).
     */
    public static MpaFrame enhanced(MpaFrameType type, int flags, EnhancedSetup setup, PrivateData ulpData) {
        ByteBuffer data = ByteBuffer.allocate(ENHANCED_SETUP_LENGTH + ulpData.length());
        setup.encode(data);
        ulpData.putInto(data);
        return of(type, flags | FLAG_ENHANCED, REVISION_2, PrivateData.adopt(data.array()));
    }

    public MpaFrameType type() {
        return type;
    }

    /** The whole flags octet. */
    public int flags() {
        return flags;
    }

    /** M: the sender requires markers on what it receives, RFC 5044 section 7.1.1. */
    public boolean markers() {
        return (flags & FLAG_MARKERS) != 0;
    }

    /** C: the sender asks for CRCs. */
    public boolean crc() {
        return (flags & FLAG_CRC) != 0;
    }

    /** R: in a Reply, the Responder rejected the connection. */
    public boolean rejected() {
        return (flags & FLAG_REJECT) != 0;
    }

    /** The H bit as received, whatever the revision. */
    public boolean enhancedFlag() {
        return (flags & FLAG_ENHANCED) != 0;
    }

    /** The four reserved bits (0x0F) as received. */
    public int reservedBits() {
        return flags & FLAGS_RESERVED_MASK;
    }

    public int revision() {
        return revision;
    }

    /** The whole private data field, including the enhanced setup words if any. */
    public PrivateData privateData() {
        return privateData;
    }

    /**
     * Whether this frame uses RFC 6581 enhanced setup: revision 2 and H. In a revision 1 frame
     * H is one of RFC 5044's reserved bits and means nothing.
     */
    public boolean isEnhanced() {
        return revision == REVISION_2 && enhancedFlag();
    }

    /** The IRD/ORD words of an enhanced frame, empty otherwise. */
    public Optional<EnhancedSetup> enhancedSetup() {
        if (!isEnhanced() || privateData.length() < ENHANCED_SETUP_LENGTH) {
            return Optional.empty();
        }
        return Optional.of(EnhancedSetup.parse(privateData));
    }

    /** The private data meant for the ULP: all of it, less the setup words of an enhanced frame. */
    public PrivateData ulpPrivateData() {
        return isEnhanced() && privateData.length() >= ENHANCED_SETUP_LENGTH
                ? privateData.from(ENHANCED_SETUP_LENGTH)
                : privateData;
    }

    /** Octets on the wire. */
    public int encodedLength() {
        return FRAME_HEADER_LENGTH + privateData.length();
    }

    /** Writes the frame at the buffer's position and advances it. */
    public void encode(ByteBuffer destination) {
        type.putKey(destination);
        destination.put((byte) flags).put((byte) revision).putShort((short) privateData.length());
        privateData.putInto(destination);
    }

    /** The frame's octets. */
    public byte[] toBytes() {
        ByteBuffer bytes = ByteBuffer.allocate(encodedLength());
        encode(bytes);
        return bytes.array();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof MpaFrame frame && type == frame.type && flags == frame.flags
                && revision == frame.revision && privateData.equals(frame.privateData);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, flags, revision, privateData);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("MPA ").append(type).append(" rev ").append(revision).append(' ');
        text.append(markers() ? 'M' : '-').append(crc() ? 'C' : '-').append(rejected() ? 'R' : '-')
                .append(enhancedFlag() ? 'H' : '-');
        if (reservedBits() != 0) {
            text.append(String.format(" res=0x%X", reservedBits()));
        }
        enhancedSetup().ifPresent(setup -> text.append(' ').append(setup));
        return text.append(", private data ").append(privateData).toString();
    }
}
