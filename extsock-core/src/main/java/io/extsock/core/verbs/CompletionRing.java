package io.extsock.core.verbs;

import io.extsock.verbs.CompletionHandler;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.CompletionView;
import io.extsock.verbs.WorkOpcode;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A connection's completions, of fixed capacity: engine threads {@link #add} completions, the
 * application {@link #poll}s them in FIFO order; {@link #size} says how many wait. That is all
 * it does: waiting for a completion is the engine's ({@code InlineCompletionQueue} waits through
 * the engine's {@link InlineWait}, receiving on the waiting thread), so an add wakes nobody. Storage is
 * primitive arrays (one slot per completion, plus a String for a failure's detail), so the
 * steady state allocates nothing on either side. They are made at the first add: every
 * connection has a ring, and one whose application only uses its streams never adds to it
 * (a ring of 1024 slots is some 40 KiB).
 *
 * <h2>Capacity contract</h2>
 * Every posted work request holds a slot from the moment it is posted until the application
 * has consumed its completion (through {@code poll}); consuming frees the slot
 * and counts in {@link #consumed()}. The engine admits a new request only while
 * {@code posted - consumed() < capacity()}, so {@link #add} never finds the ring full in
 * correct use; if it does, it returns false and changes nothing. The capacity is rounded up to
 * a power of two (a mask, not a division, finds the slot); {@link #capacity()} tells.
 *
 * <h2>Threads</h2>
 * <ul>
 *   <li>Producers (any number at once: the receive side and an application thread sending
 *       inline, say) claim positions with one CAS and publish each slot with a volatile store of
 *       its sequence number (D. Vyukov's bounded MPMC queue). Nothing else is shared between
 *       producers, and a producer never waits for a consumer.</li>
 *   <li>Consumers take turns: {@code poll} holds a consumer lock while it
 *       consumes, which is what lets one reusable {@link CompletionView} serve every handler and
 *       keeps delivery in FIFO order across consumers. A handler therefore runs while other
 *       consumers wait for it; it must not poll its own ring (that would overwrite
 *       the view it is reading) and gets an {@link IllegalStateException} if it tries. Adding to
 *       the ring from a handler is fine.</li>
 *   <li>The view handed to a handler is valid only during that call: the next completion
 *       overwrites it. Keep one with {@link io.extsock.verbs.WorkCompletion#of}. The slot is freed before the
 *       handler runs, so a completion whose handler throws counts as consumed.</li>
 * </ul>
 */
public final class CompletionRing {

    private static final int MAX_CAPACITY = 1 << 30;
    private static final WorkOpcode[] OPCODES = WorkOpcode.values();
    private static final CompletionStatus[] STATUSES = CompletionStatus.values();

    private static final VarHandle SEQUENCES = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle TAIL;
    private static final VarHandle HEAD;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(CompletionRing.class, "tail", long.class);
            HEAD = lookup.findVarHandle(CompletionRing.class, "head", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int mask;

    /** Null until the first add: see {@link #slots()}. */
    private volatile Slots slots;

    /** The next position a producer claims. */
    private volatile long tail;
    /** The next position to consume; equal to the completions consumed so far. Written under the consumer lock. */
    private volatile long head;

    private final ReentrantLock consumerLock = new ReentrantLock();
    private final CompletionRecord view = new CompletionRecord();

    /** @param capacity completions the ring holds at least (rounded up to a power of two) */
    public CompletionRing(int capacity) {
        if (capacity < 1 || capacity > MAX_CAPACITY) {
            throw new IllegalArgumentException("capacity must be 1 to " + MAX_CAPACITY + ", not " + capacity);
        }
        int slots = capacity == 1 ? 1 : Integer.highestOneBit(capacity - 1) << 1;
        this.mask = slots - 1;
    }

    /**
     * Adds a copy of a completion; safe from any number of threads at once.
     *
     * @return false, changing nothing, when {@link #capacity()} completions are unconsumed (the
     *     engine's admission control should make that impossible: see the class comment)
     */
    public boolean add(CompletionView completion) {
        WorkOpcode opcode = Objects.requireNonNull(completion.opcode(), "opcode");
        CompletionStatus status = Objects.requireNonNull(completion.status(), "status");
        Slots ring = slots();
        long[] sequences = ring.sequences;
        long position = tail;
        int index;
        while (true) {
            index = (int) position & mask;
            long turn = (long) SEQUENCES.getAcquire(sequences, index) - position;
            if (turn == 0) {
                if (TAIL.compareAndSet(this, position, position + 1)) {
                    break;
                }
                position = tail;
            } else if (turn < 0) {
                return false; // the slot still holds the completion from one lap ago
            } else {
                position = tail; // another producer claimed this position first
            }
        }
        ring.tags[index] = completion.tag();
        ring.opcodes[index] = (byte) opcode.ordinal();
        ring.statuses[index] = (byte) status.ordinal();
        ring.byteLengths[index] = completion.byteLength();
        ring.solicited[index] = completion.solicited();
        ring.invalidatedStags[index] = completion.invalidatedStag();
        ring.details[index] = completion.detail();
        ring.causes[index] = completion.cause();
        SEQUENCES.setRelease(sequences, index, position + 1);
        return true;
    }

    /**
     * Hands up to {@code max} completions, oldest first, to the handler through one reused view
     * that is valid only during each call. Allocates nothing.
     *
     * @throws IllegalStateException if called from a handler of this ring
     */
    public int poll(CompletionHandler handler, int max) {
        Objects.requireNonNull(handler, "handler");
        if (max < 0) {
            throw new IllegalArgumentException("negative max: " + max);
        }
        refuseReentry();
        if (max == 0 || !hasCompletion()) {
            return 0; // an empty poll, the busy-polling application's usual case, takes no lock
        }
        consumerLock.lock();
        try {
            int delivered = 0;
            while (delivered < max && consumeInto(view)) {
                delivered++;
                handler.onCompletion(view);
            }
            return delivered;
        } finally {
            consumerLock.unlock();
        }
    }

    /**
     * Completions added and not yet consumed. May count one whose producer is still writing it
     * (for nanoseconds), which poll does not see yet.
     */
    public int size() {
        long consumed = head;
        long claimed = tail;
        return (int) Math.max(0, Math.min(mask + 1L, claimed - consumed));
    }

    /** Completions the ring holds at most: the capacity asked for, rounded up to a power of two. */
    public int capacity() {
        return mask + 1;
    }

    /**
     * Completions consumed (polled) since the ring was made, each of which freed its
     * slot before it was counted. The engine's admission control reads it: a new work request
     * may be posted while {@code posted - consumed() < capacity()}.
     */
    public long consumed() {
        return head;
    }

    /**
     * Whether a poll would hand over a completion now: the oldest unconsumed one is written, not
     * only claimed (see {@link #size}). What a wait for a completion waits for. Reads the head and
     * then its slot with volatile reads; a head that moved meanwhile is read again rather than
     * taken for an empty ring.
     */
    public boolean hasCompletion() {
        Slots ring = slots;
        if (ring == null) {
            return false;  // nothing was ever added
        }
        long[] sequences = ring.sequences;
        long position = head;
        while (true) {
            long turn = (long) SEQUENCES.getVolatile(sequences, (int) position & mask) - (position + 1);
            if (turn == 0) {
                return true;
            }
            if (turn < 0) {
                return false; // not yet written (or its producer is still writing it)
            }
            position = head; // consumed by another consumer since we read the head
        }
    }

    /** Copies the oldest completion into the view and frees its slot; false if there is none. Under the lock. */
    private boolean consumeInto(CompletionRecord into) {
        Slots ring = slots;
        if (ring == null) {
            return false;
        }
        long[] sequences = ring.sequences;
        long position = head;
        int index = (int) position & mask;
        if ((long) SEQUENCES.getAcquire(sequences, index) != position + 1) {
            return false;
        }
        into.set(ring.tags[index], OPCODES[ring.opcodes[index]], STATUSES[ring.statuses[index]],
                ring.byteLengths[index], ring.solicited[index], ring.invalidatedStags[index], ring.details[index],
                ring.causes[index]);
        ring.details[index] = null; // a consumed slot keeps no garbage alive
        ring.causes[index] = null;
        SEQUENCES.setRelease(sequences, index, position + mask + 1);
        // After the slot is free: consumed() must never promise a slot a producer cannot have yet.
        HEAD.setRelease(this, position + 1);
        return true;
    }

    /** The slots, made by the first producer (under this ring's monitor, once). */
    private Slots slots() {
        Slots ring = slots;
        if (ring == null) {
            synchronized (this) {
                ring = slots;
                if (ring == null) {
                    ring = new Slots(mask + 1);
                    slots = ring;
                }
            }
        }
        return ring;
    }

    /** The ring's storage: a slot per completion, as parallel arrays. */
    private static final class Slots {
        /**
         * Per slot, whose turn it is: position p may be written when the sequence is p, read when
         * it is p + 1, and consuming it sets p + capacity (the same slot's turn one lap later).
         */
        final long[] sequences;
        final long[] tags;
        final byte[] opcodes;
        final byte[] statuses;
        final long[] byteLengths;
        final boolean[] solicited;
        final int[] invalidatedStags;
        final String[] details;
        final CompletionCause[] causes;

        Slots(int count) {
            sequences = new long[count];
            for (int i = 0; i < count; i++) {
                sequences[i] = i;
            }
            tags = new long[count];
            opcodes = new byte[count];
            statuses = new byte[count];
            byteLengths = new long[count];
            solicited = new boolean[count];
            invalidatedStags = new int[count];
            details = new String[count];
            causes = new CompletionCause[count];
        }
    }

    private void refuseReentry() {
        if (consumerLock.isHeldByCurrentThread()) {
            throw new IllegalStateException("a completion handler must not consume from its own ring: "
                    + "it would overwrite the view it is handling");
        }
    }
}
