package io.extsock.core.verbs;

import io.extsock.core.terminate.TerminateCause;
import io.extsock.verbs.Access;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * The registered regions of one connection: its protection domain. A peer reaches memory only
 * through an STag this table issued for this connection (RFC 5042 section 5), so an STag of
 * another connection simply names nothing here.
 *
 * <p>Each registration gets a fresh STag of 32 random bits ({@link StagSource}, a {@link
 * SecureRandom}): never {@link Stag#RESERVED}, never the STag of a region still registered. A
 * stale STag (its region deregistered) names a later region only if that region happens to draw
 * the same 32 bits, a chance of 2^-32 per registration; a guessing peer fares no better.
 *
 * <p>Threads: registration, deregistration and invalidation may come from any thread at any
 * time. {@link #lookup} is lock-free and allocation-free, for the engine's receive path ({@link
 * StagTable}), and a region is marked dead before it leaves the table, so a lookup racing with
 * deregistration returns either the live region or null, never another registration's region.
 * Deregistration returns only once the connection no longer uses the region ({@link
 * RegionFence}).
 */
public final class MemoryRegistry {

    /** The most regions one connection may hold at once. */
    public static final int MAX_REGIONS = (1 << 24) - 1;
    /** Draws in a row that may all hit taken STags before we suspect the generator. */
    private static final int MAX_DRAWS = 1_000;

    private final Object lock = new Object();
    private final StagSource stags;
    private final int maxRegions;
    private final StagTable table = new StagTable();  // written under lock, read without it
    private final RegionFence fence = new RegionFence();
    private boolean closed;  // guarded by lock

    /**
     * A registry whose STags come from the JVM's one {@link SecureRandom} for STags ({@link
     * StagSource#secure()}): unpredictable to the peer.
     */
    public MemoryRegistry() {
        this(StagSource.secure(), MAX_REGIONS);
    }

    /** For tests: a chosen source of STag bits and a smaller limit. */
    MemoryRegistry(Random stagBits, int maxRegions) {
        this(new StagSource(Objects.requireNonNull(stagBits, "stagBits")), maxRegions);
    }

    private MemoryRegistry(StagSource stags, int maxRegions) {
        if (maxRegions < 1 || maxRegions > MAX_REGIONS) {
            throw new IllegalArgumentException("maxRegions out of range: " + maxRegions);
        }
        this.stags = stags;
        this.maxRegions = maxRegions;
    }

    /**
     * Registers {@code buffer} from its first byte to its capacity, whatever its position and
     * limit, and optionally locks its pages in RAM.
     *
     * @throws IllegalArgumentException for a read-only buffer with LOCAL_WRITE or REMOTE_WRITE,
     *     or for pinning a heap buffer
     * @throws IOException when pinning is refused (the message names RLIMIT_MEMLOCK), when the
     *     table is full, or when the connection has ended
     */
    public RegisteredRegion register(ByteBuffer buffer, Set<Access> access, boolean pin) throws IOException {
        Objects.requireNonNull(buffer, "buffer");
        requireRights(access);
        if (buffer.isReadOnly() && (access.contains(Access.LOCAL_WRITE) || access.contains(Access.REMOTE_WRITE))) {
            throw new IllegalArgumentException("a read-only buffer cannot be registered with LOCAL_WRITE or"
                    + " REMOTE_WRITE: " + access);
        }
        ByteBuffer memory = buffer.duplicate().clear();
        requireOpen();
        PinnedRange pinned = pin ? MemoryPinning.pin(memory) : null;
        try {
            return add(stag -> new RegisteredRegion(this, memory, buffer.order(), stag, access, pinned));
        } catch (IOException | RuntimeException e) {
            if (pinned != null) {
                MemoryPinning.unpin(pinned);
            }
            throw e;
        }
    }

    /**
     * Registers the bytes {@code [position, position + length)} of a file, read as they are
     * framed rather than mapped ({@link FileRegionSource}). The region opens the file and
     * closes it when deregistered.
     *
     * @throws IllegalArgumentException for a write right, or a negative position or length
     * @throws java.io.EOFException if the range reaches beyond the file's end
     * @throws IOException if the file cannot be opened, the table is full, or the connection
     *     has ended
     */
    public RegisteredRegion registerFile(Path file, long position, long length, Set<Access> access)
            throws IOException {
        requireRights(access);
        if (access.contains(Access.LOCAL_WRITE) || access.contains(Access.REMOTE_WRITE)) {
            throw new IllegalArgumentException("a file region is read-only: it cannot be registered with"
                    + " LOCAL_WRITE or REMOTE_WRITE: " + access);
        }
        requireOpen();
        FileRegionSource source = FileRegionSource.open(file, position, length);
        try {
            return add(stag -> new RegisteredRegion(this, source, stag, access));
        } catch (IOException | RuntimeException e) {
            source.close();
            throw e;
        }
    }

    /** Makes a region with a fresh STag and puts it in the table, unless the table is full or closed. */
    private RegisteredRegion add(IntFunction<RegisteredRegion> withStag) throws IOException {
        synchronized (lock) {
            requireOpen();
            if (table.size() >= maxRegions) {
                throw new IOException("cannot register more than " + maxRegions
                        + " regions on one connection; deregister some first");
            }
            RegisteredRegion region = withStag.apply(freshStag());
            table.put(region);
            return region;
        }
    }

    private static void requireRights(Set<Access> access) {
        Objects.requireNonNull(access, "access");
        for (Access right : access) {
            Objects.requireNonNull(right, "access contains null");
        }
    }

    /**
     * The valid region this STag names, or null: no such STag (never issued, stale, guessed,
     * reserved), deregistered, or invalidated. Lock-free and allocation-free.
     */
    public RegisteredRegion lookup(int stag) {
        RegisteredRegion region = registered(stag);
        return region != null && region.isValid() ? region : null;
    }

    /**
     * Invalidates the region named by the Invalidate STag of a peer's Send with Invalidate or
     * Send with Solicited Event and Invalidate (RFC 5040 section 5.3), before the Send is
     * delivered.
     *
     * <p>The peer may invalidate only what this connection advertised to it: a region with a
     * remote right. Anything else is refused with RDMAP Remote Protection Error "STag cannot be
     * Invalidated" (layer 0, type 1, code 0x09; RFC 5040 section 4.8): an STag that names no
     * region, a stale or guessed one, or a local-only region the peer was never given. It is a
     * protection error, not an operation error (type 2, code 0x09), because in each case the
     * peer acts on memory it holds no right to (RFC 5040 section 7.2 groups STag and rights
     * faults as remote protection errors); the one answer for all of them also tells a
     * guessing peer nothing about which STags exist (RFC 5042 section 5). Linux siw sends the
     * protection error for an STag of another protection domain and the operation error for an
     * unknown index; every region here belongs to this one domain.
     *
     * <p>Invalidating an STag that is already invalidated succeeds, as the verbs allow.
     *
     * @return null when the STag is (now) invalid; else the Terminate cause
     */
    public TerminateCause invalidate(int stag) {
        RegisteredRegion region = registered(stag);
        if (region == null || !region.isRemotelyAccessible()) {
            return TerminateCause.RDMAP_PROTECTION_CANNOT_INVALIDATE;
        }
        region.markInvalidated();
        return null;
    }

    /** Deregisters every region and unpins its pages, when the connection ends. Later registrations fail. */
    public void closeAll() {
        List<RegisteredRegion> removed;
        synchronized (lock) {
            closed = true;
            removed = table.removeAll();
            for (RegisteredRegion region : removed) {
                region.markDeregistered();
            }
        }
        for (RegisteredRegion region : removed) {
            release(region);
        }
    }

    /** How many regions are registered now (valid or invalidated). */
    public int registeredCount() {
        synchronized (lock) {
            return table.size();
        }
    }

    /** Whether {@link #closeAll} has run. */
    public boolean isClosed() {
        synchronized (lock) {
            return closed;
        }
    }

    /**
     * Deregisters one region: its STag dies at once and is free for reuse, its pages unpinned.
     * Returns once the connection neither places into the region nor sends a Read Response
     * from it ({@link RegionFence}), also when the connection's end deregistered it first.
     */
    void deregister(RegisteredRegion region) {
        boolean first;
        synchronized (lock) {
            if (!region.belongsTo(this)) {
                return;
            }
            first = region.markDeregistered();
            if (first) {
                table.remove(region);
            }
        }
        fence.awaitUnused(region);
        if (first) {
            release(region);
        }
    }

    /** The fence between this connection's regions and its receive and transmit sides. */
    RegionFence fence() {
        return fence;
    }

    /** The region this STag names while it is registered, valid or invalidated; else null. */
    private RegisteredRegion registered(int stag) {
        RegisteredRegion region = table.get(stag);
        return region != null && !region.isDeregistered() ? region : null;
    }

    /** What a deregistered region held: its pinned pages, a file region's file. */
    private static void release(RegisteredRegion region) {
        region.closeFile();
        PinnedRange pinned = region.pinnedRange();
        if (pinned != null) {
            MemoryPinning.unpin(pinned);
        }
    }

    private void requireOpen() throws IOException {
        synchronized (lock) {
            if (closed) {
                throw new IOException("the connection has ended: its memory registry is closed");
            }
        }
    }

    /** 32 random bits no registered region has, and not the reserved 0. Under the lock. */
    private int freshStag() {
        for (int draw = 0; draw < MAX_DRAWS; draw++) {
            int candidate = stags.nextCandidate();
            if (candidate != Stag.RESERVED && table.get(candidate) == null) {
                return candidate;
            }
        }
        throw new IllegalStateException(MAX_DRAWS + " STags in a row were taken or reserved: the random source"
                + " is broken");
    }

    @Override
    public String toString() {
        return "MemoryRegistry[" + registeredCount() + " regions" + (isClosed() ? ", closed" : "") + "]";
    }
}
