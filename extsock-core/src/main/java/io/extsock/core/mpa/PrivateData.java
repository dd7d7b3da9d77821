package io.extsock.core.mpa;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Immutable octets exchanged in connection setup: what a ULP puts in a Request or Reply (RFC
 * 5044 section 7.1.4), or a frame's whole private data field. Values, not buffers: equal
 * contents are equal.
 */
public final class PrivateData {

    /** No octets. */
    public static final PrivateData EMPTY = new PrivateData(new byte[0]);

    private final byte[] octets;

    private PrivateData(byte[] octets) {
        this.octets = octets;
    }

    /** A copy of these octets. */
    public static PrivateData of(byte... octets) {
        return octets.length == 0 ? EMPTY : new PrivateData(octets.clone());
    }

    /** Takes these octets without a copy: for arrays nobody else holds. */
    static PrivateData adopt(byte[] octets) {
        return octets.length == 0 ? EMPTY : new PrivateData(octets);
    }

    /** A copy of the buffer's remaining octets; the buffer's position does not move. */
    public static PrivateData copyOf(ByteBuffer buffer) {
        byte[] octets = new byte[buffer.remaining()];
        buffer.get(buffer.position(), octets);
        return octets.length == 0 ? EMPTY : new PrivateData(octets);
    }

    /** The octets from offset to the end. */
    public PrivateData from(int offset) {
        return offset == 0 ? this : of(Arrays.copyOfRange(octets, offset, octets.length));
    }

    public int length() {
        return octets.length;
    }

    public boolean isEmpty() {
        return octets.length == 0;
    }

    /** The octet at this index, 0..255. */
    public int octet(int index) {
        return octets[index] & 0xFF;
    }

    public byte[] toByteArray() {
        return octets.clone();
    }

    /** A read-only view of the octets. */
    public ByteBuffer asReadOnlyBuffer() {
        return ByteBuffer.wrap(octets).asReadOnlyBuffer();
    }

    void putInto(ByteBuffer destination) {
        destination.put(octets);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PrivateData data && Arrays.equals(octets, data.octets);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(octets);
    }

    /** The octets in hex, for logs. */
    @Override
    public String toString() {
        return octets.length + " octets" + (octets.length == 0 ? "" : " " + HexFormat.of().formatHex(octets));
    }
}
