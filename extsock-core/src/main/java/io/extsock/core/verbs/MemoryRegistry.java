package io.extsock.core.verbs;

import io.extsock.core.wire.TerminateCause;
import io.extsock.verbs.Access;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The registered regions of one connection: its protection domain. A peer reaches memory only
 * through an STag this table issued for this connection (RFC 5042 section 5), so an STag of
 * another connection simply names nothing here.
 *
 * <p>STags are a 24-bit index and an 8-bit random key ({@link Stag}). Indices start at 1, so
 * STag 0 is never issued; a freed index is reused oldest-first and always with a key that
 * differs from its previous one, so a stale STag names nothing even after its index is reused.
 *
 * <p>Threads: registration, deregistration and invalidation may come from any thread at any
 * time. {@link #lookup} is lock-free and allocation-free, for the engine's receive path: the
 * table is an {@link AtomicReferenceArray} replaced wholesale when it grows, and a region is
 * marked dead before it leaves the table, so a lookup racing with deregistration returns
 * either the live region or null, never another registration's region.
 */
public final class MemoryRegistry {

    private static final int INITIAL_SLOTS = 16;
    private static final int NO_KEY_YET = -1;
    private static final int KEYS = 1 << Stag.KEY_BITS;

    private final Object lock = new Object();
    private final Random keys;
    private final int maxIndex;

    /** Index to region; slot 0 stays empty. Written under {@link #lock}, read without it. */
    private volatile AtomicReferenceArray<RegisteredRegion> slots = new AtomicReferenceArray<>(INITIAL_SLOTS);
    private int[] lastKeys = newKeyTable(INITIAL_SLOTS);  // guarded by lock
    private final ArrayDeque<Integer> freeIndices = new ArrayDeque<>();  // guarded by lock, oldest first
    private int nextFreshIndex = Stag.FIRST_INDEX;  // guarded by lock
    private int registered;  // guarded by lock
    private boolean closed;  // guarded by lock

    /** A registry whose keys come from a {@link SecureRandom}: unpredictable to the peer. */
    public MemoryRegistry() {
        this(new SecureRandom(), Stag.MAX_INDEX);
    }

    /** For tests: a chosen key source and a smaller table. */
    MemoryRegistry(Random keys, int maxIndex) {
        if (maxIndex < Stag.FIRST_INDEX || maxIndex > Stag.MAX_INDEX) {
            throw new IllegalArgumentException("maxIndex out of range: " + maxIndex);
        }
        this.keys = Objects.requireNonNull(keys, "keys");
        this.maxIndex = maxIndex;
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
        Objects.requireNonNull(access, "access");
        for (Access right : access) {
            Objects.requireNonNull(right, "access contains null");
        }
        if (buffer.isReadOnly() && (access.contains(Access.LOCAL_WRITE) || access.contains(Access.REMOTE_WRITE))) {
            throw new IllegalArgumentException("a read-only buffer cannot be registered with LOCAL_WRITE or"
                    + " REMOTE_WRITE: " + access);
        }
        ByteBuffer memory = buffer.duplicate().clear();
        requireOpen();
        PinnedRange pinned = pin ? MemoryPinning.pin(memory) : null;
        try {
            synchronized (lock) {
                requireOpen();
                int index = takeIndex();
                RegisteredRegion region = new RegisteredRegion(this, memory, buffer.order(),
                        Stag.of(index, newKey(index)), access, pinned);
                slots.set(index, region);
                registered++;
                return region;
            }
        } catch (IOException | RuntimeException e) {
            if (pinned != null) {
                MemoryPinning.unpin(pinned);
            }
            throw e;
        }
    }

    /**
     * The valid region this STag names, or null: no region at its index, another key (a stale
     * or guessed STag), deregistered, or invalidated. Lock-free and allocation-free.
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
        List<RegisteredRegion> removed = new ArrayList<>();
        synchronized (lock) {
            closed = true;
            AtomicReferenceArray<RegisteredRegion> table = slots;
            for (int index = Stag.FIRST_INDEX; index < table.length(); index++) {
                RegisteredRegion region = table.get(index);
                if (region != null) {
                    region.markDeregistered();
                    table.set(index, null);
                    removed.add(region);
                }
            }
            freeIndices.clear();
            registered = 0;
        }
        for (RegisteredRegion region : removed) {
            unpin(region);
        }
    }

    /** How many regions are registered now (valid or invalidated). */
    public int registeredCount() {
        synchronized (lock) {
            return registered;
        }
    }

    /** Whether {@link #closeAll} has run. */
    public boolean isClosed() {
        synchronized (lock) {
            return closed;
        }
    }

    /** Deregisters one region: its STag dies at once, its index is freed, its pages unpinned. */
    void deregister(RegisteredRegion region) {
        synchronized (lock) {
            if (!region.belongsTo(this) || !region.markDeregistered()) {
                return;
            }
            int index = Stag.index(region.stag());
            AtomicReferenceArray<RegisteredRegion> table = slots;
            if (table.get(index) == region) {
                table.set(index, null);
                freeIndices.addLast(index);
                registered--;
            }
        }
        unpin(region);
    }

    /** The region this STag names while it is registered, valid or invalidated; else null. */
    private RegisteredRegion registered(int stag) {
        int index = Stag.index(stag);
        AtomicReferenceArray<RegisteredRegion> table = slots;
        if (index >= table.length()) {
            return null;
        }
        RegisteredRegion region = table.get(index);
        return region != null && region.stag() == stag && !region.isDeregistered() ? region : null;
    }

    private static void unpin(RegisteredRegion region) {
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

    /** An index for a new region: the oldest freed one, else a fresh one. Under the lock. */
    private int takeIndex() throws IOException {
        Integer freed = freeIndices.pollFirst();
        if (freed != null) {
            return freed;
        }
        if (nextFreshIndex > maxIndex) {
            throw new IOException("cannot register more than " + (maxIndex - Stag.FIRST_INDEX + 1)
                    + " regions on one connection: the STag index has 24 bits; deregister some first");
        }
        int index = nextFreshIndex++;
        if (index >= slots.length()) {
            grow(index);
        }
        return index;
    }

    /** Replaces the table by a larger copy; lookups see the old one or the new one, both complete. */
    private void grow(int index) {
        AtomicReferenceArray<RegisteredRegion> old = slots;
        int length = (int) Math.min(Math.max(2L * old.length(), index + 1L), maxIndex + 1L);
        AtomicReferenceArray<RegisteredRegion> larger = new AtomicReferenceArray<>(length);
        for (int i = 0; i < old.length(); i++) {
            larger.set(i, old.get(i));
        }
        int[] keyTable = newKeyTable(length);
        System.arraycopy(lastKeys, 0, keyTable, 0, lastKeys.length);
        lastKeys = keyTable;
        slots = larger;
    }

    /** A random key, never the previous key of this index (so its last STag stays dead). Under the lock. */
    private int newKey(int index) {
        int previous = lastKeys[index];
        int key = previous == NO_KEY_YET ? keys.nextInt(KEYS) : (previous + 1 + keys.nextInt(KEYS - 1)) % KEYS;
        lastKeys[index] = key;
        return key;
    }

    private static int[] newKeyTable(int length) {
        int[] table = new int[length];
        Arrays.fill(table, NO_KEY_YET);
        return table;
    }

    @Override
    public String toString() {
        return "MemoryRegistry[" + registeredCount() + " regions" + (isClosed() ? ", closed" : "") + "]";
    }
}
