package io.extsock.rdma.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.extsock.rdma.ffi.RdmaConstants;
import java.io.IOException;
import java.lang.foreign.Arena;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Polling fills a reusable array of completions through the provider's poll_cq. */
class CompletionQueueTest {

    private FakeProvider provider;
    private Arena arena;

    @BeforeEach
    void setUp() throws ReflectiveOperationException {
        provider = new FakeProvider();
        arena = Arena.ofConfined();
    }

    @AfterEach
    void tearDown() {
        arena.close();
        provider.close();
    }

    @Test
    void aPollTakesAtMostTheArraysCapacityAndTheRestWaitsForTheNext() throws IOException {
        FakeProvider.COMPLETIONS.add(new FakeProvider.Completion(1, RdmaConstants.IBV_WC_SUCCESS,
                RdmaConstants.IBV_WC_SEND, 0));
        FakeProvider.COMPLETIONS.add(new FakeProvider.Completion(2, RdmaConstants.IBV_WC_SUCCESS,
                RdmaConstants.IBV_WC_RECV, 300));
        FakeProvider.COMPLETIONS.add(new FakeProvider.Completion(3, RdmaConstants.IBV_WC_WR_FLUSH_ERR,
                RdmaConstants.IBV_WC_RDMA_WRITE, 0));
        WorkCompletions completions = new WorkCompletions(2, arena);

        assertEquals(2, CompletionQueue.poll(provider.ops(), provider.cq, completions));
        assertEquals(1, completions.wrId(0));
        assertEquals(RdmaConstants.IBV_WC_SEND, completions.opcode(0));
        assertEquals(2, completions.wrId(1));
        assertEquals(RdmaConstants.IBV_WC_RECV, completions.opcode(1));
        assertEquals(300, completions.byteLength(1));
        assertEquals(17, completions.qpNumber(1));

        assertEquals(1, CompletionQueue.poll(provider.ops(), provider.cq, completions));
        assertEquals(3, completions.wrId(0));
        assertEquals(RdmaConstants.IBV_WC_WR_FLUSH_ERR, completions.status(0));
        IndexOutOfBoundsException stale = assertThrows(IndexOutOfBoundsException.class, () -> completions.wrId(1));
        assertEquals("completion 1 of 1 taken", stale.getMessage());

        assertEquals(0, CompletionQueue.poll(provider.ops(), provider.cq, completions));
    }

    @Test
    void armingFailsWithTheProvidersErrno() throws IOException {
        CompletionQueue.arm(provider.ops(), provider.cq, false);
        FakeProvider.refuseWith = 22;
        IOException refused = assertThrows(IOException.class,
                () -> CompletionQueue.arm(provider.ops(), provider.cq, true));
        assertEquals("ibv_req_notify_cq failed (errno 22)", refused.getMessage());
    }

    @Test
    void aCompletionArrayHoldsAtLeastOne() {
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
                () -> new WorkCompletions(0, arena));
        assertEquals("a poll takes at least one completion, not 0", empty.getMessage());
    }
}
