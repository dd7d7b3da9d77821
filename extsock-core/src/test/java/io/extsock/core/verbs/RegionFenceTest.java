package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.ThreadProbe;
import io.extsock.verbs.Access;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The rules of {@link RegionFence}, one at a time, on a registry without a connection:
 * deregistration waits for a receive call under way, for a direct read that may still run into
 * the region, and for a Read Response that holds the region; it does not wait for a read into
 * another region, nor when the deregistering thread is the one it would wait for.
 */
class RegionFenceTest {

    private final MemoryRegistry registry = new MemoryRegistry();
    private final RegionFence fence = registry.fence();

    private RegisteredRegion region() throws IOException {
        return registry.register(ByteBuffer.allocateDirect(64), EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE,
                Access.REMOTE_READ), false);
    }

    @Test
    @DisplayName("idle receive side: close() returns at once")
    void idle() throws IOException {
        RegisteredRegion region = region();
        region.close();
        assertFalse(region.isValid());
    }

    @Test
    @DisplayName("a receive call under way on another thread: close() waits until it leaves")
    void waitsForAReceiveCall() throws Exception {
        RegisteredRegion region = region();
        fence.enterReceive();  // this thread plays the receive side
        FutureTask<Void> closing = closeAndAwaitTheFence(region);
        assertFalse(closing.isDone(), "close() returned while the receive call was still placing");
        fence.leaveReceive();
        closing.get(30, TimeUnit.SECONDS);
    }

    @Test
    @DisplayName("a direct read that may still run into the region: close() waits until the receive side comes back")
    void waitsForADirectReadIntoTheRegion() throws Exception {
        RegisteredRegion region = region();
        fence.enterReceive();
        region.placementWindow(0, 8);
        fence.directReadMayFollow();
        FutureTask<Void> closing = closeAndAwaitTheFence(region);
        assertFalse(closing.isDone(), "close() returned while a direct read into it may still run");
        fence.enterReceive();  // back: the read is over, and the region is seen dead from here on
        closing.get(30, TimeUnit.SECONDS);
        assertFalse(region.isPlacementView(region.placementWindow(0, 8)), "a throwaway window now");
        fence.leaveReceive();
    }

    @Test
    @DisplayName("a direct read into another region: close() does not wait for it")
    void doesNotWaitForADirectReadElsewhere() throws Exception {
        RegisteredRegion region = region();
        RegisteredRegion other = region();
        fence.enterReceive();
        other.placementWindow(0, 8);
        fence.directReadMayFollow();
        CompletableFuture.runAsync(region::close).get(30, TimeUnit.SECONDS);
    }

    @Test
    @DisplayName("the receive side itself closing a region (a completion handler): no wait, no deadlock")
    void theReceiveSideItselfDoesNotWait() throws IOException {
        RegisteredRegion region = region();
        fence.enterReceive();
        region.close();
        fence.leaveReceive();
        assertFalse(region.isValid());
    }

    @Test
    @DisplayName("a Read Response holding the region: close() waits until it went out")
    void waitsForAReadResponse() throws Exception {
        RegisteredRegion region = region();
        assertTrue(region.holdForTransmit());
        FutureTask<Void> closing = closeAndAwaitTheFence(region);
        assertFalse(closing.isDone(), "close() returned while a Read Response from it was on its way");
        region.releaseTransmitHold();
        closing.get(30, TimeUnit.SECONDS);
        assertFalse(region.holdForTransmit(), "no Read Response starts from a deregistered region");
    }

    /**
     * Closes the region on a thread of its own and returns once that thread waits in the fence
     * (without a connection, the fence waits by yielding): deregistered, and held there.
     */
    private static FutureTask<Void> closeAndAwaitTheFence(RegisteredRegion region) throws InterruptedException {
        FutureTask<Void> closing = new FutureTask<>(region::close, null);
        Thread closer = new Thread(closing, "closing a region");
        closer.start();
        ThreadProbe.awaitStack(closer, "waiting in the fence", stack -> ThreadProbe.inside(stack,
                RegionFence.class.getName(), "awaitUnused") && ThreadProbe.inside(stack, "java.lang.Thread", "yield"));
        assertTrue(region.isDeregistered(), "deregistered before it waits");
        return closing;
    }
}
