package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.verbs.Access;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.RegionSlice;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WriteRequest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Local protection: the slices of posted work requests (the verbs' LOCAL_PROTECTION_ERROR). */
class LocalAccessCheckTest {

    private final MemoryRegistry registry = new MemoryRegistry();
    private final LocalAccessCheck check = new LocalAccessCheck(registry);

    @Test
    void gatherSourcesNeedNoRight() throws IOException {
        RegisteredRegion plain = register(EnumSet.noneOf(Access.class));
        assertNull(check.check(new SendRequest().gather(plain.slice(0, 10), plain.slice(10, 0))));
        assertNull(check.check(new WriteRequest().gather(plain.slice(0, 100))
                .target(new RemoteBuffer(0x0000_0101, 0, 100))));
        assertNull(check.check(new SendRequest()), "a zero-length Send has no slices");
    }

    @Test
    void receiveBuffersNeedLocalWrite() throws IOException {
        RegisteredRegion writable = register(EnumSet.of(Access.LOCAL_WRITE));
        RegisteredRegion readable = register(EnumSet.of(Access.REMOTE_READ, Access.REMOTE_WRITE));
        assertNull(check.check(new ReceiveRequest().scatter(writable.slice(0, 100))));
        String fault = check.check(new ReceiveRequest().scatter(writable.slice(0, 10), readable.slice(0, 10)));
        assertTrue(fault.startsWith("Receive scatter entry 1: region " + Stag.toString(readable.stag())
                + " lacks LOCAL_WRITE"), fault);
    }

    @Test
    void readSinksNeedLocalWrite() throws IOException {
        RegisteredRegion sink = register(EnumSet.of(Access.LOCAL_WRITE));
        RegisteredRegion remoteOnly = register(EnumSet.of(Access.REMOTE_WRITE));
        RemoteBuffer source = new RemoteBuffer(0x0000_0201, 0, 10);
        assertNull(check.check(new ReadRequest().source(source).sink(sink.slice(0, 10))));
        String fault = check.check(new ReadRequest().source(source).sink(remoteOnly.slice(0, 10)));
        assertTrue(fault.startsWith("RDMA Read sink: region " + Stag.toString(remoteOnly.stag()) + " lacks LOCAL_WRITE"),
                fault);
        assertTrue(fault.contains("receive buffers and RDMA Read sinks"), fault);
    }

    @Test
    void deregisteredRegionIsRefused() throws IOException {
        RegisteredRegion region = register(EnumSet.of(Access.LOCAL_WRITE));
        RegionSlice slice = region.slice(0, 10);
        region.close();
        String fault = check.check(new SendRequest().gather(slice));
        assertTrue(fault.startsWith("Send gather entry 0: region " + Stag.toString(region.stag())
                + " is no longer valid"), fault);
    }

    @Test
    void regionInvalidatedByThePeerIsRefused_rfc5040_5_3() throws IOException {
        RegisteredRegion region = register(EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
        assertNull(registry.invalidate(region.stag()));
        String fault = check.check(new ReceiveRequest().scatter(region.slice(0, 10)));
        assertTrue(fault.contains("no longer valid") && fault.contains("invalidated"), fault);
    }

    @Test
    void regionOfAnotherConnectionIsRefused() throws IOException {
        RegisteredRegion foreign = new MemoryRegistry().register(ByteBuffer.allocate(100),
                EnumSet.of(Access.LOCAL_WRITE), false);
        String fault = check.check(new WriteRequest().gather(foreign.slice(0, 10))
                .target(new RemoteBuffer(0x0000_0101, 0, 10)));
        assertTrue(fault.startsWith("RDMA Write gather entry 0: the slice names a region registered on another"
                + " connection"), fault);
    }

    @Test
    void regionNotMadeByExtsockIsRefused() {
        MemoryRegion impostor = new ImpostorRegion();
        String fault = check.check(new RegionSlice(impostor, 0, 10), null);
        assertTrue(fault.contains("another connection (or not by extsock)"), fault);
    }

    private RegisteredRegion register(Set<Access> access) throws IOException {
        return registry.register(ByteBuffer.allocateDirect(100), access, false);
    }

    /** A MemoryRegion that no registry issued. */
    private static final class ImpostorRegion implements MemoryRegion {
        @Override
        public ByteBuffer buffer() {
            return ByteBuffer.allocate(100);
        }

        @Override
        public int stag() {
            return 0x0000_0101;
        }

        @Override
        public long length() {
            return 100;
        }

        @Override
        public Set<Access> access() {
            return EnumSet.allOf(Access.class);
        }

        @Override
        public boolean isPinned() {
            return false;
        }

        @Override
        public boolean isValid() {
            return true;
        }

        @Override
        public RemoteBuffer remote() {
            return new RemoteBuffer(stag(), 0, 100);
        }

        @Override
        public RemoteBuffer remote(long offset, long length) {
            return new RemoteBuffer(stag(), offset, length);
        }

        @Override
        public RegionSlice slice(long offset, int length) {
            return new RegionSlice(this, offset, length);
        }

        @Override
        public void close() {
        }
    }
}
