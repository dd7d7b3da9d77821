package io.extsock.core.verbs;

import io.extsock.verbs.Access;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.RegionSlice;
import io.extsock.verbs.RemoteBuffer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * One registered region of a connection's {@link MemoryRegistry}: the buffer from its first byte
 * to its capacity, the rights it was registered with, and the STag that names it.
 *
 * <p>Tagged offsets are zero-based (RFC 5040 section 3.2 lets the ULP choose them): TO 0 is the
 * region's first byte and the region spans TO {@code [0, length)}.
 *
 * <p>The region keeps its own duplicate of the buffer, so the application may move the
 * original's position and limit freely. Heap buffers can be registered, but they are not zero
 * copy: the engine moves their bytes through a direct buffer.
 *
 * <p>A file region has no buffer: its bytes are a range of a file ({@link FileRegionSource}),
 * read as they are framed. It is read-only (no write right), so nothing is ever placed into it.
 *
 * <p>A region stops being valid when the application closes it (deregistration) or when the
 * peer invalidates its STag with a Send with Invalidate (RFC 5040 section 5.3); either way its
 * STag names nothing from then on.
 */
public final class RegisteredRegion implements MemoryRegion {

    private static final int VALID = 0;
    private static final int INVALIDATED = 1;
    private static final int DEREGISTERED = 2;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(RegisteredRegion.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final MemoryRegistry registry;
    /** The connection's fence (null only for the table's tombstone). */
    private final RegionFence fence;
    /** The registered buffer; null for a file region. */
    private final ByteBuffer memory;
    /** The file range of a file region; null for a buffer's. */
    private final FileRegionSource file;
    private final ByteOrder order;
    private final int stag;
    private final Set<Access> access;
    private final boolean localWrite;
    private final boolean remoteRead;
    private final boolean remoteWrite;
    private final PinnedRange pinnedRange;
    /** For the engine's receive path: reused for every placement, by one thread. */
    private final ByteBuffer placementView;
    /** For the engine's transmit path: reused for every gather entry, by one thread. */
    private final ByteBuffer transmitView;

    private volatile int state = VALID;
    /** Read Responses from this region on their way out; written by the transmit side only. */
    private volatile int transmitHolds;

    /** Most views kept for reuse: enough for one full gathering write of this region. */
    private static final int MAX_POOLED_VIEWS = 256;
    private final java.util.ArrayDeque<ByteBuffer> transmitViewPool = new java.util.ArrayDeque<>();

    RegisteredRegion(MemoryRegistry registry, ByteBuffer memory, ByteOrder order, int stag, Set<Access> access,
            PinnedRange pinnedRange) {
        this(registry, memory, null, order, stag, access, pinnedRange);
    }

    /** A file region: never pinned; {@link MemoryRegistry#registerFile} has refused write rights. */
    RegisteredRegion(MemoryRegistry registry, FileRegionSource file, int stag, Set<Access> access) {
        this(registry, null, file, ByteOrder.BIG_ENDIAN, stag, access, null);
    }

    private RegisteredRegion(MemoryRegistry registry, ByteBuffer memory, FileRegionSource file, ByteOrder order,
            int stag, Set<Access> access, PinnedRange pinnedRange) {
        this.registry = registry;
        this.fence = registry != null ? registry.fence() : null;
        this.memory = memory;
        this.file = file;
        this.order = order;
        this.stag = stag;
        this.access = Collections.unmodifiableSet(access.isEmpty() ? EnumSet.noneOf(Access.class)
                : EnumSet.copyOf(access));
        this.localWrite = access.contains(Access.LOCAL_WRITE);
        this.remoteRead = access.contains(Access.REMOTE_READ);
        this.remoteWrite = access.contains(Access.REMOTE_WRITE);
        this.pinnedRange = pinnedRange;
        this.placementView = memory != null ? memory.duplicate() : null;
        this.transmitView = memory != null ? memory.asReadOnlyBuffer() : null;
    }

    /** The marker {@link StagTable} leaves where it removed a region: STag 0, no memory, no rights. */
    static RegisteredRegion tombstone() {
        return new RegisteredRegion(null, ByteBuffer.allocate(0), ByteOrder.BIG_ENDIAN, Stag.RESERVED,
                EnumSet.noneOf(Access.class), null);
    }

    /** A fresh view of the whole region: position 0, limit = capacity, the original's byte order. */
    @Override
    public ByteBuffer buffer() {
        if (file != null) {
            throw new UnsupportedOperationException("region " + Stag.toString(stag) + " is a file region (of "
                    + file.path() + "): it has no buffer; read the file itself");
        }
        return memory.duplicate().order(order);
    }

    @Override
    public int stag() {
        return stag;
    }

    @Override
    public long length() {
        return file != null ? file.length() : memory.capacity();
    }

    @Override
    public Set<Access> access() {
        return access;
    }

    /** Whether the pages are locked in RAM: registered pinned and not yet deregistered. */
    @Override
    public boolean isPinned() {
        return pinnedRange != null && state != DEREGISTERED;
    }

    @Override
    public boolean isValid() {
        return state == VALID;
    }

    /** Whether the region was registered with {@code right}. Allocation-free. */
    public boolean allows(Access right) {
        switch (right) {
            case LOCAL_WRITE:
                return localWrite;
            case REMOTE_READ:
                return remoteRead;
            case REMOTE_WRITE:
                return remoteWrite;
            default:
                throw new IllegalArgumentException("unknown right " + right);
        }
    }

    /** Whether the peer may reach the region at all: the region can be advertised. */
    public boolean isRemotelyAccessible() {
        return remoteRead || remoteWrite;
    }

    /** Whether the region belongs to {@code registry}, that is to its connection. */
    public boolean belongsTo(MemoryRegistry registry) {
        return this.registry == registry;
    }

    @Override
    public RemoteBuffer remote() {
        return remote(0, length());
    }

    /**
     * @throws IllegalStateException if the region has no remote right, or is no longer valid
     * @throws IndexOutOfBoundsException if the window does not lie within the region
     */
    @Override
    public RemoteBuffer remote(long offset, long length) {
        if (!isRemotelyAccessible()) {
            throw new IllegalStateException("region " + Stag.toString(stag) + " grants neither REMOTE_READ nor"
                    + " REMOTE_WRITE, so the peer cannot use it; register it with one of them to advertise it");
        }
        requireValid();
        Objects.checkFromIndexSize(offset, length, length());
        if (length > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("a window of " + length + " bytes of region " + Stag.toString(stag)
                    + ": a remote buffer's length is 32 bits on the wire (at most 2^32 - 1); advertise the region"
                    + " in smaller windows");
        }
        return new RemoteBuffer(stag, offset, length);
    }

    @Override
    public RegionSlice slice(long offset, int length) {
        return new RegionSlice(this, offset, length);
    }

    /**
     * Deregisters the region; idempotent. Returns once the connection can no longer place
     * received octets into the buffer nor send a Read Response from it ({@link RegionFence}):
     * from then on the buffer is the application's alone.
     */
    @Override
    public void close() {
        registry.deregister(this);
    }

    /**
     * The region's bytes {@code [offset, offset + length)} to place incoming data into, as a view
     * owned by the region and reused on every call: for the connection's receive path, one
     * thread at a time. Allocation-free. The caller has checked the range (see {@link
     * RegionPlacementLookup}).
     *
     * <p>Once the region is deregistered, a throwaway buffer of that length instead: its
     * deregistration returned (or is waiting for this receive call, see {@link RegionFence}),
     * and the application owns the buffer again. Only a payload that started before the
     * deregistration gets here (a later segment's STag names nothing); it is dropped.
     */
    public ByteBuffer placementWindow(long offset, int length) {
        requireMemory();
        fence.placingInto(this);
        if (state == DEREGISTERED) {
            return ByteBuffer.allocate(length);  // the rare race only: allocation is fine here
        }
        return window(placementView, offset, length);
    }

    /** Whether {@code destination} is this region's placement view (a payload under way into it). */
    boolean isPlacementView(ByteBuffer destination) {
        return destination == placementView;
    }

    /**
     * The transmit side starts a message from this region (a Read Response, or a Send or Write
     * from a file region): false if the region is deregistered, else it stays held until
     * {@link #releaseTransmitHold}. The count is written
     * before the state is read, against deregistration's write-then-read (see {@link
     * RegionFence}). Transmit side only.
     */
    boolean holdForTransmit() {
        transmitHolds = transmitHolds + 1;
        if (state == DEREGISTERED) {
            transmitHolds = transmitHolds - 1;
            return false;
        }
        return true;
    }

    /** A message from this region went out whole (or never will). Transmit side only. */
    void releaseTransmitHold() {
        transmitHolds = transmitHolds - 1;
    }

    boolean heldForTransmitByNobody() {
        return transmitHolds == 0;
    }

    /**
     * A read-only view of the region's bytes {@code [offset, offset + length)} to transmit from,
     * owned by the region and reused on every call: for the connection's transmit path, one
     * thread at a time. Allocation-free.
     */
    public ByteBuffer transmitWindow(long offset, int length) {
        requireMemory();
        return window(transmitView, offset, length);
    }

    /**
     * A view of the region's bytes {@code [offset, offset + length)} for a gathering write,
     * from a pool of views this region keeps (a gathering write may reference several at once;
     * the pool lives and dies with the region). Give it back with {@link #returnTransmitView}
     * once the write is done. Transmit path only, one thread at a time; allocation-free in the
     * steady state.
     */
    public ByteBuffer lendTransmitView(long offset, int length) {
        requireMemory();
        ByteBuffer view = transmitViewPool.pollFirst();
        if (view == null) {
            view = memory.duplicate().order(order);
        }
        Objects.checkFromIndexSize(offset, length, length());
        int start = (int) offset;
        view.limit(start + length).position(start);
        return view;
    }

    /** A view lent by {@link #lendTransmitView}, no longer referenced by any write. */
    public void returnTransmitView(ByteBuffer view) {
        if (transmitViewPool.size() < MAX_POOLED_VIEWS) {
            transmitViewPool.addFirst(view);
        }
    }

    /** Whether this is a file region: its bytes come by {@link #readFileInto}, it has no views. */
    boolean isFile() {
        return file != null;
    }

    /**
     * Fills {@code block} (position to limit) with the file region's bytes from {@code offset}
     * and flips it. Transmit path only.
     *
     * @throws SourceUnreadableException if the file could not be read there
     */
    void readFileInto(ByteBuffer block, long offset) {
        Objects.checkFromIndexSize(offset, block.remaining(), length());
        file.readInto(block, offset);
    }

    /** Closes a file region's file, after deregistration. */
    void closeFile() {
        if (file != null) {
            file.close();
        }
    }

    private void requireMemory() {
        if (file != null) {
            throw new IllegalStateException("region " + Stag.toString(stag) + " is a file region: it has no"
                    + " memory to view or place into");
        }
    }

    private ByteBuffer window(ByteBuffer view, long offset, int length) {
        Objects.checkFromIndexSize(offset, length, length());
        int start = (int) offset;
        view.limit(start + length).position(start);
        return view;
    }

    PinnedRange pinnedRange() {
        return pinnedRange;
    }

    /**
     * Marks a Send with Invalidate; true when the region was valid. A compare-and-set, because
     * the receive path calls it while an application thread may be deregistering.
     */
    boolean markInvalidated() {
        return STATE.compareAndSet(this, VALID, INVALIDATED);
    }

    /** Marks deregistration; false when already deregistered. Called by the registry under its lock. */
    boolean markDeregistered() {
        return (int) STATE.getAndSet(this, DEREGISTERED) != DEREGISTERED;
    }

    boolean isDeregistered() {
        return state == DEREGISTERED;
    }

    private void requireValid() {
        int now = state;
        if (now != VALID) {
            throw new IllegalStateException("region " + Stag.toString(stag) + " was "
                    + (now == INVALIDATED ? "invalidated by the peer" : "deregistered") + "; register the buffer again");
        }
    }

    @Override
    public String toString() {
        int now = state;
        return "RegisteredRegion[stag=" + Stag.toString(stag) + ", length=" + length() + ", access=" + access
                + (pinnedRange != null ? ", pinned" : "")
                + (file != null ? ", file " + file.path() : memory.isDirect() ? "" : ", heap")
                + (now == VALID ? "" : now == INVALIDATED ? ", invalidated" : ", deregistered") + "]";
    }
}
