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

    /** The registered buffer (position 0, limit = capacity at registration). */
    ByteBuffer buffer();

    /** The STag: a 24-bit index and an 8-bit key (RFC 5040 section 2.1, RFC 5042). */
    int stag();

    /** The region's length in bytes. */
    long length();

    /** What may be done with the region. */
    Set<Access> access();

    /** Whether the region is locked in RAM (see {@link IwarpConnection#registerPinned}). */
    boolean isPinned();

    /** False once the region was closed or invalidated by a Send with Invalidate. */
    boolean isValid();

    /** The whole region as the peer addresses it. Needs a remote right. */
    RemoteBuffer remote();

    /** A window of the region as the peer addresses it. Needs a remote right. */
    RemoteBuffer remote(long offset, long length);

    /** A window of the region for local use in a work request. */
    RegionSlice slice(long offset, int length);

    /** Deregisters the region; idempotent. */
    @Override
    void close();
}
