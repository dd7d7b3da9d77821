package io.extsock.rdma.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.rdma.events.CmEvent;
import io.extsock.rdma.ffi.RdmaConstants;
import java.lang.foreign.MemorySegment;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The rdma_cm events of one identifier as a setting-up thread waits for them. */
@Timeout(30)
class CmInboxTest {

    private static final long NO_LIMIT = Long.MAX_VALUE;

    private static CmEvent event(int type, int status) {
        return new CmEvent(type, status, MemorySegment.NULL, MemorySegment.NULL, new byte[] {7}, 16, 16);
    }

    @Test
    void aWaitSkipsWhatSaysNothingAndReturnsTheExpectedEvent() throws Exception {
        CmInbox inbox = new CmInbox();
        inbox.deliver(event(RdmaConstants.RDMA_CM_EVENT_TIMEWAIT_EXIT, 0));
        CmEvent resolved = event(RdmaConstants.RDMA_CM_EVENT_ADDR_RESOLVED, 0);
        inbox.deliver(resolved);
        assertSame(resolved, inbox.await(RdmaConstants.RDMA_CM_EVENT_ADDR_RESOLVED, NO_LIMIT, "resolving"));
    }

    @Test
    void aRejectionAndARefusalFailTheConnectNamingThem() {
        CmInbox rejected = new CmInbox();
        rejected.deliver(event(RdmaConstants.RDMA_CM_EVENT_REJECTED, 28));
        assertEquals("connecting to 10.0.0.2:7000: the peer rejected the connection (status 28)",
                assertThrows(ConnectException.class, () -> rejected.await(RdmaConstants.RDMA_CM_EVENT_ESTABLISHED,
                        NO_LIMIT, "connecting to 10.0.0.2:7000")).getMessage());
        CmInbox refused = new CmInbox();
        refused.deliver(event(RdmaConstants.RDMA_CM_EVENT_CONNECT_ERROR, -111));
        assertEquals("connecting to 10.0.0.2:7000: Connection refused",
                assertThrows(ConnectException.class, () -> refused.await(RdmaConstants.RDMA_CM_EVENT_ESTABLISHED,
                        NO_LIMIT, "connecting to 10.0.0.2:7000")).getMessage());
    }

    @Test
    void aWaitPastItsDeadlineTimesOut() {
        CmInbox inbox = new CmInbox();
        assertEquals("resolving: timed out", assertThrows(SocketTimeoutException.class,
                () -> inbox.await(RdmaConstants.RDMA_CM_EVENT_ADDR_RESOLVED, System.nanoTime(), "resolving"))
                .getMessage());
    }

    @Test
    void closingWakesTheWaiterAndHandsBackWhatWasNotTaken() throws Exception {
        CmInbox inbox = new CmInbox();
        CompletableFuture<Exception> waiter = CompletableFuture.supplyAsync(() -> {
            try {
                inbox.await(RdmaConstants.RDMA_CM_EVENT_CONNECT_REQUEST, NO_LIMIT, "accepting");
                return null;
            } catch (Exception e) {
                return e;
            }
        });
        // The waiter may or may not be waiting yet: either way it must end with "Socket closed".
        List<CmEvent> left = inbox.close();
        assertTrue(left.isEmpty());
        Exception e = waiter.get(10, TimeUnit.SECONDS);
        assertTrue(e instanceof SocketException && "Socket closed".equals(e.getMessage()), String.valueOf(e));
        assertEquals("Socket closed", assertThrows(SocketException.class,
                () -> inbox.await(RdmaConstants.RDMA_CM_EVENT_CONNECT_REQUEST, NO_LIMIT, "accepting")).getMessage());
    }

    @Test
    void onceUpTheConnectionHearsOfItsEndAsItHappens() {
        CmInbox inbox = new CmInbox();
        CmEvent early = event(RdmaConstants.RDMA_CM_EVENT_DISCONNECTED, 0);
        inbox.deliver(early);
        List<CmEvent> ends = new ArrayList<>();
        inbox.onEnd(ends::add);
        assertEquals(List.of(early), ends, "an end that came before the connection listened");
        CmEvent removal = event(RdmaConstants.RDMA_CM_EVENT_DEVICE_REMOVAL, 0);
        inbox.deliver(removal);
        assertEquals(List.of(early, removal), ends);
    }
}
