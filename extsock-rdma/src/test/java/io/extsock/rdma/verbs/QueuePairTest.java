package io.extsock.rdma.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.extsock.rdma.ffi.Libc;
import io.extsock.rdma.ffi.RdmaConstants;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Work requests reach the provider with every field where a C provider reads it. */
class QueuePairTest {

    private FakeProvider provider;
    private Arena arena;
    private MemorySegment memory;
    private MemoryRegistration region;

    @BeforeEach
    void setUp() throws ReflectiveOperationException {
        provider = new FakeProvider();
        arena = Arena.ofConfined();
        memory = arena.allocate(4096, 64);
        region = provider.registration(memory, 0x1111, 0x2222);
    }

    @AfterEach
    void tearDown() {
        arena.close();
        provider.close();
    }

    @Test
    void aSendWriteAndReadCarryTheirOpcodeBufferKeysAndRemoteTarget() throws IOException {
        QueuePair qp = provider.queuePair();
        SendRequest request = new SendRequest(arena);
        qp.post(request.send(1, region, 0, 100, RdmaConstants.IBV_SEND_SIGNALED));
        qp.post(request.write(2, region, 512, 1024, 0x7f0000001000L, 0xabcd, 0));
        qp.post(request.read(3, region, 2048, 2048, 0x7f0000002000L, 0xbeef,
                RdmaConstants.IBV_SEND_SIGNALED | RdmaConstants.IBV_SEND_FENCE));
        long base = memory.address();
        assertEquals(List.of(
                new FakeProvider.Posted("post_send", 1, RdmaConstants.IBV_WR_SEND, RdmaConstants.IBV_SEND_SIGNALED,
                        base, 100, 0x1111, 0, 0),
                new FakeProvider.Posted("post_send", 2, RdmaConstants.IBV_WR_RDMA_WRITE, 0,
                        base + 512, 1024, 0x1111, 0x7f0000001000L, 0xabcd),
                new FakeProvider.Posted("post_send", 3, RdmaConstants.IBV_WR_RDMA_READ,
                        RdmaConstants.IBV_SEND_SIGNALED | RdmaConstants.IBV_SEND_FENCE,
                        base + 2048, 2048, 0x1111, 0x7f0000002000L, 0xbeef)), FakeProvider.POSTED);
        assertEquals(17, qp.number());
    }

    @Test
    void aReceiveOffersItsBuffer() throws IOException {
        provider.queuePair().post(new ReceiveRequest(arena).into(9, region, 64, 4032));
        assertEquals(List.of(new FakeProvider.Posted("post_recv", 9, -1, 0, memory.address() + 64, 4032, 0x1111, 0,
                0)), FakeProvider.POSTED);
    }

    @Test
    void aRefusedRequestIsNamedWithTheProvidersErrno() {
        FakeProvider.refuseWith = RdmaConstants.ENOMEM;
        QueuePair qp = provider.queuePair();
        IOException send = assertThrows(IOException.class,
                () -> qp.post(new SendRequest(arena).send(41, region, 0, 8, 0)));
        assertEquals("ibv_post_send refused work request 41: " + Libc.strerror(RdmaConstants.ENOMEM) + " (errno 12)",
                send.getMessage());
        IOException recv = assertThrows(IOException.class,
                () -> qp.post(new ReceiveRequest(arena).into(42, region, 0, 8)));
        assertEquals("ibv_post_recv refused work request 42: " + Libc.strerror(RdmaConstants.ENOMEM) + " (errno 12)",
                recv.getMessage());
    }

    @Test
    void aBufferOutsideItsRegionIsRefusedBeforeAnythingIsPosted() {
        SendRequest request = new SendRequest(arena);
        IndexOutOfBoundsException outside = assertThrows(IndexOutOfBoundsException.class,
                () -> request.send(1, region, 4000, 100, 0));
        assertEquals("octets 4000..4100 are not within the registered 4096", outside.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> new ReceiveRequest(arena).into(1, region, -1, 8));
        assertEquals(List.of(), FakeProvider.POSTED);
    }

    @Test
    void heapMemoryCannotBeRegistered() {
        IllegalArgumentException heap = assertThrows(IllegalArgumentException.class,
                () -> MemoryRegistration.checkedNative(MemorySegment.ofArray(new byte[64])));
        assertEquals("only native memory can be registered with an RDMA device: heap memory moves;"
                + " allocate it from an Arena or map a file", heap.getMessage());
    }

    @Test
    void aRegistrationsKeysAreTheOnesTheDeviceGave() {
        assertEquals(0x1111, region.lkey());
        assertEquals(0x2222, region.rkey());
    }
}
