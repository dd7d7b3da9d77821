package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.CompletionView;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WorkOpcode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What a single thread sees of the ring: order, limits, capacity, the view, the consumed count. */
class CompletionRingTest {

    @Test
    void pollDeliversEveryFieldInFifoOrder() {
        CompletionRing ring = new CompletionRing(16);
        List<WorkCompletion> added = new ArrayList<>();
        long tag = 0x1_0000_0000L;
        for (WorkOpcode opcode : WorkOpcode.values()) {
            for (CompletionStatus status : CompletionStatus.values()) {
                WorkCompletion completion = new WorkCompletion(tag++, opcode, status, 5_000_000_000L + tag,
                        tag % 2 == 0, (int) tag * 31, status == CompletionStatus.SUCCESS ? null : "failed " + tag);
                added.add(completion);
            }
        }
        List<WorkCompletion> polled = new ArrayList<>();
        for (int i = 0; i < added.size(); i += 8) {
            // 24 completions through a ring of 16: several laps.
            for (WorkCompletion completion : added.subList(i, Math.min(added.size(), i + 8))) {
                assertTrue(add(ring, completion));
            }
            ring.poll(view -> polled.add(WorkCompletion.of(view)), Integer.MAX_VALUE);
        }
        assertEquals(added, polled);
    }

    @Test
    void pollStopsAtMax() {
        CompletionRing ring = new CompletionRing(8);
        for (int tag = 0; tag < 5; tag++) {
            ring.add(completion(tag, WorkOpcode.SEND, CompletionStatus.SUCCESS, 0, false, 0, null));
        }
        List<Long> tags = new ArrayList<>();
        assertEquals(2, ring.poll(view -> tags.add(view.tag()), 2));
        assertEquals(List.of(0L, 1L), tags);
        assertEquals(3, ring.size());
        assertEquals(3, ring.poll(view -> tags.add(view.tag()), 10));
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L), tags);
    }

    @Test
    void pollOfNothingDeliversNothing() {
        CompletionRing ring = new CompletionRing(4);
        assertEquals(0, ring.poll(view -> { throw new AssertionError("nothing to deliver"); }, 4));
        ring.add(completion(1, WorkOpcode.SEND, CompletionStatus.SUCCESS, 0, false, 0, null));
        assertEquals(0, ring.poll(view -> { throw new AssertionError("max is 0"); }, 0));
        assertEquals(1, ring.size());
        assertThrows(IllegalArgumentException.class, () -> ring.poll(view -> { }, -1));
        assertEquals(1, ring.size());
    }

    @ParameterizedTest
    @CsvSource({"1, 1", "2, 2", "3, 4", "5, 8", "8, 8", "1000, 1024"})
    void capacityIsRoundedUpToAPowerOfTwo(int asked, int expected) {
        assertEquals(expected, new CompletionRing(asked).capacity());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, Integer.MIN_VALUE, (1 << 30) + 1, Integer.MAX_VALUE})
    void capacityOutOfRangeIsRefused(int capacity) {
        assertThrows(IllegalArgumentException.class, () -> new CompletionRing(capacity));
    }

    @Test
    void addRefusesWhenFullAndChangesNothing() {
        CompletionRing ring = new CompletionRing(4);
        for (int tag = 0; tag < 4; tag++) {
            assertTrue(ring.add(completion(tag, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, tag, false, 0, null)));
        }
        assertFalse(ring.add(completion(99, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, 0, false, 0, null)));
        assertEquals(4, ring.size());

        List<Long> tags = new ArrayList<>();
        assertEquals(1, ring.poll(view -> tags.add(view.tag()), 1));
        assertTrue(ring.add(completion(4, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, 4, false, 0, null)),
                "a slot was freed");
        assertFalse(ring.add(completion(100, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, 0, false, 0, null)));
        ring.poll(view -> tags.add(view.tag()), 10);
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L), tags, "the refused completions never appear");
    }

    @Test
    void everyPostedRequestHoldsASlotUntilItsCompletionIsConsumed() throws InterruptedException {
        // The engine's admission control: post while posted - consumed() < capacity(). Then
        // add never finds the ring full, however completions and consumption interleave.
        CompletionRing ring = new CompletionRing(8);
        long posted = 0;
        int consumedByPoll = 0;
        int consumedByTake = 0;
        for (int round = 0; round < 200; round++) {
            while (posted - ring.consumed() < ring.capacity()) {
                assertTrue(ring.add(completion(posted++, WorkOpcode.RDMA_WRITE, CompletionStatus.SUCCESS, 0, false, 0,
                        null)));
            }
            assertFalse(ring.add(completion(-1, WorkOpcode.RDMA_WRITE, CompletionStatus.SUCCESS, 0, false, 0, null)),
                    "capacity() completions are unconsumed: the ring is full");
            if (round % 3 == 0) {
                assertEquals(ring.consumed(), takeNow(ring).tag());
                consumedByTake++;
            } else {
                consumedByPoll += ring.poll(view -> assertEquals(view.tag(), ring.consumed() - 1), round % 8 + 1);
            }
        }
        assertEquals(consumedByPoll + consumedByTake, ring.consumed());
        assertEquals(posted - ring.consumed(), ring.size());
    }

    @Test
    void consumedCountsOnlyWhatWasConsumed() throws InterruptedException {
        CompletionRing ring = new CompletionRing(4);
        assertEquals(0, ring.consumed());
        ring.add(completion(1, WorkOpcode.SEND, CompletionStatus.SUCCESS, 0, false, 0, null));
        ring.add(completion(2, WorkOpcode.SEND, CompletionStatus.SUCCESS, 0, false, 0, null));
        ring.add(completion(3, WorkOpcode.SEND, CompletionStatus.SUCCESS, 0, false, 0, null));
        assertEquals(0, ring.consumed(), "adding consumes nothing");
        ring.poll(view -> { }, 2);
        assertEquals(2, ring.consumed());
        takeNow(ring);
        assertEquals(3, ring.consumed());
        ring.poll(view -> { }, 2);
        assertNull(takeNow(ring));
        assertEquals(3, ring.consumed(), "empty polls and takes consume nothing");
    }

    @Test
    void theViewIsOneReusedObjectAndCopiesKeepTheirValues() {
        CompletionRing ring = new CompletionRing(4);
        List<CompletionView> views = new ArrayList<>();
        List<WorkCompletion> copies = new ArrayList<>();
        for (int lap = 0; lap < 3; lap++) {
            ring.add(completion(10 + lap, WorkOpcode.RDMA_READ, CompletionStatus.SUCCESS, 100 + lap, false, 0, null));
            ring.add(completion(20 + lap, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, 200 + lap, true, 0x1234, null));
            ring.poll(view -> {
                views.add(view);
                copies.add(WorkCompletion.of(view));
            }, 2);
        }
        for (CompletionView view : views) {
            assertSame(views.get(0), view);
        }
        assertEquals(22, views.get(0).tag(), "a kept view shows the last completion, not its own");
        assertEquals(List.of(
                new WorkCompletion(10, WorkOpcode.RDMA_READ, CompletionStatus.SUCCESS, 100, false, 0, null),
                new WorkCompletion(20, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, 200, true, 0x1234, null),
                new WorkCompletion(11, WorkOpcode.RDMA_READ, CompletionStatus.SUCCESS, 101, false, 0, null),
                new WorkCompletion(21, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, 201, true, 0x1234, null),
                new WorkCompletion(12, WorkOpcode.RDMA_READ, CompletionStatus.SUCCESS, 102, false, 0, null),
                new WorkCompletion(22, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, 202, true, 0x1234, null)),
                copies);
    }

    @Test
    void aFailureDetailDoesNotOutliveItsCompletion() {
        CompletionRing ring = new CompletionRing(1);
        ring.add(completion(7, WorkOpcode.RDMA_READ, CompletionStatus.REMOTE_ACCESS_ERROR, 0, false, 0,
                "STag 0x1200 invalid"));
        List<WorkCompletion> polled = new ArrayList<>();
        ring.poll(view -> polled.add(WorkCompletion.of(view)), 1);
        ring.add(completion(8, WorkOpcode.RDMA_READ, CompletionStatus.SUCCESS, 64, false, 0, null));
        ring.poll(view -> polled.add(WorkCompletion.of(view)), 1);
        assertEquals(List.of(
                new WorkCompletion(7, WorkOpcode.RDMA_READ, CompletionStatus.REMOTE_ACCESS_ERROR, 0, false, 0,
                        "STag 0x1200 invalid"),
                new WorkCompletion(8, WorkOpcode.RDMA_READ, CompletionStatus.SUCCESS, 64, false, 0, null)), polled);
        assertFalse(polled.get(0).isSuccess());
    }

    @Test
    void aCompletionWhoseHandlerThrowsIsConsumed() {
        CompletionRing ring = new CompletionRing(4);
        for (int tag = 0; tag < 3; tag++) {
            ring.add(completion(tag, WorkOpcode.SEND, CompletionStatus.SUCCESS, 0, false, 0, null));
        }
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> ring.poll(view -> {
            if (view.tag() == 1) {
                throw new IllegalStateException("application bug");
            }
        }, 3));
        assertEquals("application bug", thrown.getMessage());
        assertEquals(2, ring.consumed());
        List<Long> rest = new ArrayList<>();
        assertEquals(1, ring.poll(view -> rest.add(view.tag()), 3), "the consumer lock was released");
        assertEquals(List.of(2L), rest);
    }

    @Test
    void aHandlerMustNotConsumeFromItsOwnRingButMayAddToIt() {
        CompletionRing ring = new CompletionRing(4);
        CompletionRing other = new CompletionRing(4);
        ring.add(completion(1, WorkOpcode.SEND, CompletionStatus.SUCCESS, 0, false, 0, null));
        other.add(completion(2, WorkOpcode.SEND, CompletionStatus.SUCCESS, 0, false, 0, null));
        List<Long> seen = new ArrayList<>();
        ring.poll(view -> {
            assertThrows(IllegalStateException.class, () -> ring.poll(inner -> { }, 1));
            assertTrue(ring.add(completion(view.tag() + 10, view.opcode(), view.status(), 0, false, 0, null)));
            other.poll(inner -> seen.add(inner.tag()), 1);
            seen.add(view.tag());
        }, 1);
        assertEquals(List.of(2L, 1L), seen, "another ring's poll has its own view");
        ring.poll(view -> seen.add(view.tag()), 1);
        assertEquals(List.of(2L, 1L, 11L), seen);
    }

    @Test
    void missingOpcodeOrStatusIsRefusedBeforeTakingASlot() {
        CompletionRing ring = new CompletionRing(1);
        assertThrows(NullPointerException.class,
                () -> ring.add(completion(1, null, CompletionStatus.SUCCESS, 0, false, 0, null)));
        assertThrows(NullPointerException.class,
                () -> ring.add(completion(1, WorkOpcode.SEND, null, 0, false, 0, null)));
        assertEquals(0, ring.size());
        assertTrue(ring.add(completion(2, WorkOpcode.SEND, CompletionStatus.SUCCESS, 0, false, 0, null)));
    }

    @Test
    void sizeCountsUnconsumedCompletions() {
        CompletionRing ring = new CompletionRing(4);
        assertEquals(0, ring.size());
        for (int i = 1; i <= 4; i++) {
            ring.add(completion(i, WorkOpcode.SEND, CompletionStatus.SUCCESS, 0, false, 0, null));
            assertEquals(i, ring.size());
        }
        ring.poll(view -> { }, 3);
        assertEquals(1, ring.size());
        ring.poll(view -> { }, 3);
        assertEquals(0, ring.size());
    }

    private static boolean add(CompletionRing ring, WorkCompletion completion) {
        return ring.add(completion(completion.tag(), completion.opcode(), completion.status(),
                completion.byteLength(), completion.solicited(), completion.invalidatedStag(), completion.detail()));
    }

    /** The oldest completion, kept, or null: as InlineCompletionQueue takes one. */
    private static WorkCompletion takeNow(CompletionRing ring) {
        WorkCompletion[] taken = new WorkCompletion[1];
        return ring.poll(view -> taken[0] = WorkCompletion.of(view), 1) == 1 ? taken[0] : null;
    }

    /** A completion with no cause, as the ring's callers fill one. */
    private static CompletionRecord completion(long tag, WorkOpcode opcode, CompletionStatus status, long byteLength,
                                               boolean solicited, int invalidatedStag, String detail) {
        return new CompletionRecord().set(tag, opcode, status, byteLength, solicited, invalidatedStag, detail,
                CompletionCause.NONE);
    }
}
