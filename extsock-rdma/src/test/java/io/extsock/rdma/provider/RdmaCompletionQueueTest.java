package io.extsock.rdma.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WorkOpcode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A device connection's completion queue, as the application reads what the event thread added. */
@Timeout(30)
class RdmaCompletionQueueTest {

    private static WorkCompletion completion(long tag, CompletionStatus status) {
        return new WorkCompletion(tag, WorkOpcode.RDMA_WRITE, status, status == CompletionStatus.SUCCESS ? 64 : 0,
                false, 0, status == CompletionStatus.SUCCESS ? null : "Work Request Flushed Error",
                status == CompletionStatus.SUCCESS ? CompletionCause.NONE : CompletionCause.CLOSED);
    }

    @Test
    void pollHandsOverInOrderUpToTheLimit() {
        RdmaCompletionQueue queue = new RdmaCompletionQueue();
        for (long tag = 1; tag <= 3; tag++) {
            queue.add(completion(tag, CompletionStatus.SUCCESS));
        }
        queue.add(completion(4, CompletionStatus.FLUSHED));
        List<String> seen = new ArrayList<>();
        assertEquals(2, queue.poll(view -> seen.add(view.tag() + " " + view.status()), 2));
        assertEquals(2, queue.poll(view -> seen.add(view.tag() + " " + view.status() + " " + view.cause()), 5));
        assertEquals(List.of("1 SUCCESS", "2 SUCCESS", "3 SUCCESS NONE", "4 FLUSHED CLOSED"), seen);
        assertEquals(0, queue.poll(view -> seen.add("more"), 5));
    }

    @Test
    void awaitLeavesTheCompletionAndTakeTakesIt() throws Exception {
        RdmaCompletionQueue queue = new RdmaCompletionQueue();
        assertFalse(queue.await(1, TimeUnit.MILLISECONDS));
        assertNull(queue.take(1, TimeUnit.MILLISECONDS));
        WorkCompletion first = completion(9, CompletionStatus.SUCCESS);
        queue.add(first);
        assertTrue(queue.await(1, TimeUnit.SECONDS));
        assertEquals(1, queue.size());
        assertSame(first, queue.take(1, TimeUnit.SECONDS));
        assertEquals(0, queue.size());
    }

    @Test
    void aWaitingTakeGetsWhatIsAddedLater() throws Exception {
        RdmaCompletionQueue queue = new RdmaCompletionQueue();
        CompletableFuture<WorkCompletion> taken = CompletableFuture.supplyAsync(() -> {
            try {
                return queue.take(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        WorkCompletion later = completion(5, CompletionStatus.SUCCESS);
        queue.add(later);
        assertSame(later, taken.get(20, TimeUnit.SECONDS));
    }
}
