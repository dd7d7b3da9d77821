package io.extsock.core.mpa;

import static io.extsock.core.mpa.MpaConstants.ENHANCED_SETUP_LENGTH;
import static io.extsock.core.mpa.MpaConstants.IRD_ORD_MASK;
import static io.extsock.core.mpa.MpaConstants.IRD_PEER_TO_PEER;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The RFC 6581 section 7.1 connection setup data: the first four octets of the private data of
 * a revision 2 Request or Reply with H set.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+---------------------------+-+-+---------------------------+
 * |A|B|            IRD            |C|D|            ORD            |
 * +-+-+---------------------------+-+-+---------------------------+
 *  A peer-to-peer   B zero-length Send RTR
 *  C zero-length RDMA Write RTR   D zero-length RDMA Read RTR
 * </pre>
 *
 * <p>In a Request the RTR bits are the kinds the Initiator can send; in a Reply, the one the
 * Responder chose.
 *
 * @param ird inbound RDMA Read queue depth of the frame's sender, 0..16383
 * @param ord outbound RDMA Read queue depth of the frame's sender, 0..16383
 * @param peerToPeer bit A
 * @param rtrKinds bits B, C and D
 */
public record EnhancedSetup(int ird, int ord, boolean peerToPeer, Set<RtrKind> rtrKinds) {

    public EnhancedSetup {
        requireCount("IRD", ird);
        requireCount("ORD", ord);
        rtrKinds = rtrKinds.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(rtrKinds));
    }

    /** Reads the two words at the buffer's position; the position does not move. */
    public static EnhancedSetup parse(ByteBuffer source) {
        int at = source.position();
        return fromWords(source.getShort(at) & 0xFFFF, source.getShort(at + 2) & 0xFFFF);
    }

    /** Reads the first four octets of a frame's private data, which must hold at least four. */
    public static EnhancedSetup parse(PrivateData privateData) {
        return fromWords(privateData.octet(0) << 8 | privateData.octet(1),
                privateData.octet(2) << 8 | privateData.octet(3));
    }

    static EnhancedSetup fromWords(int irdWord, int ordWord) {
        EnumSet<RtrKind> kinds = EnumSet.noneOf(RtrKind.class);
        for (RtrKind kind : RtrKind.values()) {
            if ((irdWord & kind.irdWordBit()) != 0 || (ordWord & kind.ordWordBit()) != 0) {
                kinds.add(kind);
            }
        }
        return new EnhancedSetup(irdWord & IRD_ORD_MASK, ordWord & IRD_ORD_MASK,
                (irdWord & IRD_PEER_TO_PEER) != 0, kinds);
    }

    /** The IRD word as sent: A, B and the IRD count. */
    public int irdWord() {
        int word = ird | (peerToPeer ? IRD_PEER_TO_PEER : 0);
        for (RtrKind kind : rtrKinds) {
            word |= kind.irdWordBit();
        }
        return word;
    }

    /** The ORD word as sent: C, D and the ORD count. */
    public int ordWord() {
        int word = ord;
        for (RtrKind kind : rtrKinds) {
            word |= kind.ordWordBit();
        }
        return word;
    }

    /** Writes the four octets at the buffer's position and advances it. */
    public void encode(ByteBuffer destination) {
        destination.putShort((short) irdWord()).putShort((short) ordWord());
    }

    /** The four octets. */
    public byte[] toBytes() {
        ByteBuffer bytes = ByteBuffer.allocate(ENHANCED_SETUP_LENGTH);
        encode(bytes);
        return bytes.array();
    }

    private static void requireCount(String name, int value) {
        if (value < 0 || value > IRD_ORD_MASK) {
            throw new IllegalArgumentException(name + " must be 0.." + IRD_ORD_MASK + ", not " + value);
        }
    }
}
