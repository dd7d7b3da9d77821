package io.extsock.rdma.provider;

import io.extsock.rdma.verbs.MemoryRegistration;
import io.extsock.verbs.Access;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.RegionSlice;
import io.extsock.verbs.RemoteBuffer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A buffer registered with the device ({@code ibv_reg_mr}): pinned by the kernel, its STag the
 * registration's rkey, and its tagged offsets the buffer's virtual addresses, as verbs
 * applications and RNICs use them ({@link #remote()} carries the address as its offset).
 */
final class RdmaMemoryRegion implements MemoryRegion {

    private static final System.Logger LOG = System.getLogger(RdmaMemoryRegion.class.getName());

    private final ByteBuffer buffer;
    private final MemoryRegistration registration;
    private final Set<Access> access;
    private final Consumer<RdmaMemoryRegion> onClose;
    private volatile boolean valid = true;

    RdmaMemoryRegion(ByteBuffer buffer, MemoryRegistration registration, Set<Access> access,
                     Consumer<RdmaMemoryRegion> onClose) {
        this.buffer = buffer;
        this.registration = registration;
        this.access = Set.copyOf(access);
        this.onClose = onClose;
    }

    MemoryRegistration registration() {
        return registration;
    }

    @Override
    public ByteBuffer buffer() {
        return buffer;
    }

    @Override
    public int stag() {
        return registration.rkey();
    }

    @Override
    public long length() {
        return registration.memory().byteSize();
    }

    @Override
    public Set<Access> access() {
        return access;
    }

    @Override
    public boolean isPinned() {
        return true;
    }

    @Override
    public boolean isValid() {
        return valid;
    }

    @Override
    public RemoteBuffer remote() {
        return remote(0, length());
    }

    @Override
    public RemoteBuffer remote(long offset, long length) {
        if (offset < 0 || length < 0 || offset + length > length()) {
            throw new IndexOutOfBoundsException("window [" + offset + ", +" + length + ") outside a region of "
                    + length() + " bytes");
        }
        return new RemoteBuffer(stag(), registration.memory().address() + offset, length);
    }

    @Override
    public RegionSlice slice(long offset, int length) {
        return new RegionSlice(this, offset, length);
    }

    /** Deregisters the buffer; a request still using it then fails on the device. */
    @Override
    public void close() {
        if (valid) {
            valid = false;
            onClose.accept(this);
            try {
                registration.close();
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "ibv_dereg_mr failed", e);
            }
        }
    }

    @Override
    public String toString() {
        return String.format("MemoryRegion[stag=0x%08x, length=%d, access=%s, device]", stag(), length(), access);
    }
}
