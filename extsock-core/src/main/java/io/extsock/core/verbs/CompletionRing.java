package io.extsock.core.verbs;

import io.extsock.verbs.CompletionHandler;
import io.extsock.verbs.CompletionQueue;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.CompletionView;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WorkOpcode;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A completion queue of fixed capacity: engine threads {@link #add} completions, the
 * application {@link #poll}s, {@link #await}s or {@link #take}s them in FIFO order. Storage is
 * preallocated primitive arrays (one slot per completion, plus a String for a failure's
 * detail), so the steady state allocates nothing on either side.
 *
 * <h2>Capacity contract</h2>
 * Every posted work request holds a slot from the moment it is posted until the application
 * has consumed its completion (through {@code poll} or {@code take}); consuming frees the slot
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
 *   <li>Consumers take turns: {@code poll} and {@code take} hold a consumer lock while they
 *       consume, which is what lets one reusable {@link CompletionView} serve every handler and
 *       keeps delivery in FIFO order across consumers. A handler therefore runs while other
 *       consumers wait for it; it must not poll or take from its own ring (that would overwrite
 *       the view it is reading) and gets an {@link IllegalStateException} if it tries. Adding to
 *       the ring from a handler is fine.</li>
 *   <li>The view handed to a handler is valid only during that call: the next completion
 *       overwrites it. Keep one with {@link WorkCompletion#of}. The slot is freed before the
 *       handler runs, so a completion whose handler throws counts as consumed.</li>
 * </ul>
 *
 * <h2>Waiting</h2>
 * A waiting consumer first spins for up to the spin time given at construction,
 * {@value #DEFAULT_SPIN_NANOS} ns by default: on two vCPUs, waking a parked thread on the other
 * CPU costs about 40 to 85 µs, so spinning about as long as a wake-up costs never loses more
 * than a factor of two and wins whenever the completion comes sooner. It spins by calling
 * {@link Thread#yield} rather than {@link Thread#onSpinWait}: when the producer shares the
 * waiter's CPU (unpinned threads often do), a busy spin keeps the producer off that CPU for
 * the whole spin, and a ping-pong round trip measured about 100 µs instead of 1.3 µs; a yield
 * hands the CPU over, and costs only a short syscall when nobody else wants it (see
 * CompletionQueuePath in extsock-bench). Then the consumer registers in a
 * {@link CompletionWaiters} slot and parks. A producer publishes its slot with a volatile store
 * and then reads the waiter count with a volatile read; a consumer registers with a volatile
 * read-modify-write and then checks for a completion. Whichever of the two goes second sees
 * the other, so no wake-up is lost, and a producer unparks only when a consumer is registered:
 * no unpark, no syscall per completion otherwise. Beyond the parking slots (8 by default),
 * further waiters park in slices of 100 µs and look again.
 */
public final class CompletionRing implements CompletionQueue {

    /** How long a waiting consumer spins (yielding) before it parks, by default: about one wake-up's cost. */
    public static final long DEFAULT_SPIN_NANOS = 50_000;

    /** Consumers that can park at once and be woken by the producer itself. */
    static final int DEFAULT_PARKING_SLOTS = 8;

    /** How often a consumer without a parking slot looks again. */
    static final long UNREGISTERED_PARK_NANOS = 100_000;

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
    private final long spinNanos;

    /**
     * Per slot, whose turn it is: position p may be written when the sequence is p, read when it
     * is p + 1, and consuming it sets p + capacity (the same slot's turn one lap later).
     */
    private final long[] sequences;
    private final long[] tags;
    private final byte[] opcodes;
    private final byte[] statuses;
    private final long[] byteLengths;
    private final boolean[] solicited;
    private final int[] invalidatedStags;
    private final String[] details;
    private final CompletionCause[] causes;

    /** The next position a producer claims. */
    private volatile long tail;
    /** The next position to consume; equal to the completions consumed so far. Written under the consumer lock. */
    private volatile long head;

    private final ReentrantLock consumerLock = new ReentrantLock();
    private final CompletionFlyweight view = new CompletionFlyweight();
    private final CompletionWaiters waiters;

    /** A ring for at least {@code capacity} completions, spinning {@link #DEFAULT_SPIN_NANOS} before parking. */
    public CompletionRing(int capacity) {
        this(capacity, DEFAULT_SPIN_NANOS);
    }

    /**
     * @param capacity  completions the ring holds at least (rounded up to a power of two)
     * @param spinNanos how long a waiting consumer spins (yielding) before it parks; 0 parks at once
     */
    public CompletionRing(int capacity, long spinNanos) {
        this(capacity, spinNanos, DEFAULT_PARKING_SLOTS);
    }

    CompletionRing(int capacity, long spinNanos, int parkingSlots) {
        if (capacity < 1 || capacity > MAX_CAPACITY) {
            throw new IllegalArgumentException("capacity must be 1 to " + MAX_CAPACITY + ", not " + capacity);
        }
        if (spinNanos < 0) {
            throw new IllegalArgumentException("negative spin time: " + spinNanos);
        }
        int slots = capacity == 1 ? 1 : Integer.highestOneBit(capacity - 1) << 1;
        this.mask = slots - 1;
        this.spinNanos = spinNanos;
        this.waiters = new CompletionWaiters(parkingSlots);
        sequences = new long[slots];
        for (int i = 0; i < slots; i++) {
            sequences[i] = i;
        }
        tags = new long[slots];
        opcodes = new byte[slots];
        statuses = new byte[slots];
        byteLengths = new long[slots];
        solicited = new boolean[slots];
        invalidatedStags = new int[slots];
        details = new String[slots];
        causes = new CompletionCause[slots];
    }

    /**
     * Adds a completion; safe from any number of threads at once. Wakes a parked consumer if
     * there is one.
     *
     * @param detail for a failure, what went wrong; null on success
     * @return false, changing nothing, when {@link #capacity()} completions are unconsumed (the
     *     engine's admission control should make that impossible: see the class comment)
     */
    public boolean add(long tag, WorkOpcode opcode, CompletionStatus status, long byteLength, boolean solicited,
                       int invalidatedStag, String detail) {
        return add(tag, opcode, status, byteLength, solicited, invalidatedStag, detail, CompletionCause.NONE);
    }

    /** As above, with the failure's cause as a value ({@link CompletionCause#NONE} on success). */
    public boolean add(long tag, WorkOpcode opcode, CompletionStatus status, long byteLength, boolean solicited,
                       int invalidatedStag, String detail, CompletionCause cause) {
        Objects.requireNonNull(opcode, "opcode");
        Objects.requireNonNull(status, "status");
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
        tags[index] = tag;
        opcodes[index] = (byte) opcode.ordinal();
        statuses[index] = (byte) status.ordinal();
        byteLengths[index] = byteLength;
        this.solicited[index] = solicited;
        invalidatedStags[index] = invalidatedStag;
        details[index] = detail;
        causes[index] = cause;
        // Volatile, not release: the waiter check below must not be ordered before it.
        SEQUENCES.setVolatile(sequences, index, position + 1);
        if (waiters.anyRegistered()) {
            waiters.wakeAll();
        }
        return true;
    }

    /**
     * Hands up to {@code max} completions, oldest first, to the handler through one reused view
     * that is valid only during each call. Allocates nothing.
     *
     * @throws IllegalStateException if called from a handler of this ring
     */
    @Override
    public int poll(CompletionHandler handler, int max) {
        Objects.requireNonNull(handler, "handler");
        if (max < 0) {
            throw new IllegalArgumentException("negative max: " + max);
        }
        refuseReentry();
        if (max == 0 || !available()) {
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
     * Waits until a completion is available, spinning first and then parking (see the class
     * comment). With several consumers, another may consume it before this one polls.
     *
     * @throws InterruptedException if the thread is interrupted on entry or while waiting
     */
    @Override
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (available()) {
            return true;
        }
        long timeoutNanos = unit.toNanos(timeout);
        if (timeoutNanos <= 0) {
            return false;
        }
        long start = System.nanoTime();
        return spinUntilAvailable(start, Math.min(spinNanos, timeoutNanos))
                || parkUntilAvailable(start, timeoutNanos);
    }

    /**
     * The oldest completion as a new {@link WorkCompletion}, waiting up to the timeout; null if
     * none came.
     *
     * @throws InterruptedException  if the thread is interrupted on entry or while waiting
     * @throws IllegalStateException if called from a handler of this ring
     */
    @Override
    public WorkCompletion take(long timeout, TimeUnit unit) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        refuseReentry();
        WorkCompletion completion = takeNow();
        if (completion != null) {
            return completion;
        }
        long timeoutNanos = unit.toNanos(timeout);
        long start = System.nanoTime();
        while (true) {
            long remaining = timeoutNanos - (System.nanoTime() - start);
            if (remaining <= 0 || !await(remaining, TimeUnit.NANOSECONDS)) {
                return null;
            }
            completion = takeNow(); // null if another consumer was faster: wait again
            if (completion != null) {
                return completion;
            }
        }
    }

    /**
     * Completions added and not yet consumed. May count one whose producer is still writing it
     * (for nanoseconds), which poll does not see yet.
     */
    @Override
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
     * Completions consumed (polled or taken) since the ring was made, each of which freed its
     * slot before it was counted. The engine's admission control reads it: a new work request
     * may be posted while {@code posted - consumed() < capacity()}.
     */
    public long consumed() {
        return head;
    }

    /** Whether a consumer is registered to be woken: none is, once every await has returned. */
    boolean consumersRegistered() {
        return waiters.anyRegistered();
    }

    /**
     * Whether the oldest unconsumed completion is published. Reads the head and then its slot
     * with volatile reads (the waiting protocol needs them); a head that moved meanwhile is
     * read again rather than taken for an empty ring.
     */
    private boolean available() {
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
    private boolean consumeInto(CompletionFlyweight into) {
        long position = head;
        int index = (int) position & mask;
        if ((long) SEQUENCES.getAcquire(sequences, index) != position + 1) {
            return false;
        }
        into.set(tags[index], OPCODES[opcodes[index]], STATUSES[statuses[index]], byteLengths[index],
                solicited[index], invalidatedStags[index], details[index], causes[index]);
        details[index] = null; // a consumed slot keeps no garbage alive
        causes[index] = null;
        SEQUENCES.setRelease(sequences, index, position + mask + 1);
        // After the slot is free: consumed() must never promise a slot a producer cannot have yet.
        HEAD.setRelease(this, position + 1);
        return true;
    }

    private WorkCompletion takeNow() {
        if (!available()) {
            return null;
        }
        consumerLock.lock();
        try {
            return consumeInto(view) ? WorkCompletion.of(view) : null;
        } finally {
            consumerLock.unlock();
        }
    }

    private void refuseReentry() {
        if (consumerLock.isHeldByCurrentThread()) {
            throw new IllegalStateException("a completion handler must not consume from its own ring: "
                    + "it would overwrite the view it is handling");
        }
    }

    private boolean spinUntilAvailable(long start, long spinLimitNanos) throws InterruptedException {
        while (System.nanoTime() - start < spinLimitNanos) {
            Thread.yield(); // not onSpinWait: the producer may be waiting for this very CPU
            if (available()) {
                return true;
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
        return false;
    }

    private boolean parkUntilAvailable(long start, long timeoutNanos) throws InterruptedException {
        Thread self = Thread.currentThread();
        while (true) {
            int slot = waiters.register(self);
            try {
                // After registering: a producer that published before we registered is seen here.
                if (available()) {
                    return true;
                }
                long remaining = timeoutNanos - (System.nanoTime() - start);
                if (remaining <= 0) {
                    return false;
                }
                LockSupport.parkNanos(this, slot >= 0 ? remaining : Math.min(remaining, UNREGISTERED_PARK_NANOS));
            } finally {
                if (slot >= 0) {
                    waiters.deregister(slot, self);
                }
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }
}
