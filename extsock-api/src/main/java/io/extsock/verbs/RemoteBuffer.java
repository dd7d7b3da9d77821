package io.extsock.verbs;

import java.nio.ByteBuffer;

/**
 * A window of a peer's registered memory, as the peer advertised it: STag, tagged offset and
 * length. Applications hand these to each other (for example over the socket's stream) in
 * the 16-byte form of {@link #writeTo} and {@link #readFrom}, the layout rping uses.
 *
 * @param stag   the steering tag (RFC 5040): index and key of the peer's region, its 32 bits as a
 *               Java {@code int} (negative when the top bit is set; {@link #stagUnsigned()} and
 *               {@link #toString()} show it unsigned)
 * @param offset the tagged offset of the window's first byte
 * @param length the window's length in bytes
 */
public record RemoteBuffer(int stag, long offset, long length) {

    /** Bytes in the encoded form: offset (64), STag (32), length (32), big-endian. */
    public static final int ENCODED_LENGTH = 16;

    /**
     * Checks the length.
     *
     * @param stag   the steering tag (RFC 5040): index and key of the peer's region
     * @param offset the tagged offset of the window's first byte
     * @param length the window's length in bytes
     * @throws IllegalArgumentException if {@code length} is negative or above 2^32 - 1 (the
     *         encoded form holds 32 bits)
     */
    public RemoteBuffer {
        if (length < 0 || length > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("length out of range: " + length);
        }
    }

    /**
     * The part of this window starting {@code skip} bytes in, {@code size} bytes long.
     *
     * @param skip bytes from this window's start
     * @param size the part's length in bytes
     * @return the part, with the same STag
     * @throws IndexOutOfBoundsException if the part does not lie within this window
     */
    public RemoteBuffer slice(long skip, long size) {
        if (skip < 0 || size < 0 || skip + size > length) {
            throw new IndexOutOfBoundsException("slice [" + skip + ", +" + size + ") of " + this);
        }
        return new RemoteBuffer(stag, offset + skip, size);
    }

    /**
     * Writes the 16-byte form at the buffer's position, advancing it.
     *
     * @param out where to write; needs {@link #ENCODED_LENGTH} bytes remaining
     * @throws java.nio.BufferOverflowException if fewer bytes remain
     */
    public void writeTo(ByteBuffer out) {
        out.putLong(offset).putInt(stag).putInt((int) length);
    }

    /**
     * Reads the 16-byte form at the buffer's position, advancing it.
     *
     * @param in where to read; needs {@link #ENCODED_LENGTH} bytes remaining
     * @return the window the form describes
     * @throws java.nio.BufferUnderflowException if fewer bytes remain
     */
    public static RemoteBuffer readFrom(ByteBuffer in) {
        long offset = in.getLong();
        int stag = in.getInt();
        long length = Integer.toUnsignedLong(in.getInt());
        return new RemoteBuffer(stag, offset, length);
    }

    /**
     * The STag as the unsigned number it is, 0 to 2^32 - 1, as {@link MemoryRegion#stagUnsigned()}.
     *
     * @return the steering tag, unsigned
     */
    public long stagUnsigned() {
        return Integer.toUnsignedLong(stag);
    }

    @Override
    public String toString() {
        return String.format("RemoteBuffer[stag=0x%08x, offset=%d, length=%d]", stag, offset, length);
    }
}
