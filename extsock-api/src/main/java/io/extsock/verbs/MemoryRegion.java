package io.extsock.verbs;

import java.nio.ByteBuffer;
import java.util.Set;

/**
 * A buffer registered with a connection: the engine may place data in it and, within its
 * rights, so may the peer through its STag. Direct and mapped buffers are used in place
 * (zero copy); heap buffers work too but the engine copies through a direct buffer.
 *
 * <p>Closing the region deregisters it: its STag becomes invalid at once, and a peer that
 * still uses it gets an invalid-STag Terminate.
 */
public interface MemoryRegion extends AutoCloseable {

    /**
     * The registered buffer.
     *
     * @return the buffer as registered (position 0, limit = capacity at registration)
     * @throws UnsupportedOperationException for a file region ({@link
     *         IwarpConnection#registerFile}), which has no buffer
     */
    ByteBuffer buffer();

    /**
     * The STag: 32 bits drawn at random for this registration, never 0 (RFC 5040 section 2.1,
     * RFC 5042 section 5: a peer must not be able to guess it). The 32 bits as a Java {@code
     * int}, as {@link RemoteBuffer} and the wire carry them: negative when the top bit is set.
     * Compare and pass it on as it is; to show it, use {@link #stagUnsigned()} or the hex form
     * every {@code toString()} and message uses ({@code 0x94da0602}, {@code
     * String.format("0x%08x", stag())}).
     *
     * @return the region's steering tag, its 32 bits as they are
     */
    int stag();

    /**
     * The STag as the unsigned number it is, 0 to 2^32 - 1: {@link #stag()}'s bits, never negative
     * ({@code 0x94da0602} is 2497316354, where {@code stag()} gives -1797650942).
     *
     * @return the region's steering tag, unsigned
     */
    default long stagUnsigned() {
        return Integer.toUnsignedLong(stag());
    }

    /**
     * The region's length.
     *
     * @return the length in bytes
     */
    long length();

    /**
     * What may be done with the region.
     *
     * @return the rights it was registered with
     */
    Set<Access> access();

    /**
     * Whether the region is locked in RAM (see {@link IwarpConnection#registerPinned}).
     *
     * @return true if pinned
     */
    boolean isPinned();

    /**
     * Whether the region can still be used.
     *
     * @return false once the region was closed, invalidated by a Send with Invalidate, or its
     *         connection ended (which deregisters every region)
     */
    boolean isValid();

    /**
     * The whole region as the peer addresses it. Needs a remote right.
     *
     * @return STag, offset 0 and the region's length
     * @throws IllegalStateException if the region grants no remote right or is no longer valid
     * @throws IllegalArgumentException if the region is longer than a {@link RemoteBuffer} holds
     *         (2^32 - 1 bytes: a file region may be): advertise it in windows instead
     */
    RemoteBuffer remote();

    /**
     * A window of the region as the peer addresses it. Needs a remote right.
     *
     * @param offset where the window starts in the region
     * @param length the window's length in bytes
     * @return STag, offset and length of the window
     * @throws IllegalStateException if the region grants no remote right or is no longer valid
     * @throws IndexOutOfBoundsException if the window does not lie within the region
     * @throws IllegalArgumentException if {@code length} exceeds 2^32 - 1 (a {@link RemoteBuffer}'s
     *         length is 32 bits on the wire)
     */
    RemoteBuffer remote(long offset, long length);

    /**
     * A window of the region for local use in a work request.
     *
     * @param offset where the window starts in the region
     * @param length the window's length in bytes
     * @return the slice
     * @throws IndexOutOfBoundsException if the window does not lie within the region
     */
    RegionSlice slice(long offset, int length);

    /**
     * Deregisters the region; idempotent. Its STag names nothing from the start of the call (a
     * peer's later RDMA Write or Read of it ends the connection with a Terminate for an invalid
     * STag), and the call returns only once the connection can no longer place received data
     * into the buffer nor send a Read Response from it: from then on the buffer is the
     * application's alone. An RDMA Read that was still outstanding into the region as its sink
     * loses the data still to come.
     */
    @Override
    void close();
}
