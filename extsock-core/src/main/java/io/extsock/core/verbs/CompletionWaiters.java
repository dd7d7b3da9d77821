package io.extsock.core.verbs;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The consumers about to park, or parked, on one {@link CompletionRing}: a fixed array of
 * thread slots and a count, so that a producer learns with one volatile read that nobody waits
 * (the usual case: no unpark, no syscall) and otherwise wakes exactly the registered threads.
 * Nothing is allocated after construction.
 *
 * <p>The count may run ahead of, or briefly below, the occupied slots while a registration and
 * a wake-up race; that costs at most a scan of the slots, never a lost wake-up, because a
 * thread is in its slot before it is counted and whoever empties a slot (producer or waiter)
 * uncounts it.
 */
final class CompletionWaiters {

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Thread[].class);
    private static final VarHandle REGISTERED;

    static {
        try {
            REGISTERED = MethodHandles.lookup().findVarHandle(CompletionWaiters.class, "registered", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Thread[] slots;
    private volatile int registered;

    CompletionWaiters(int slotCount) {
        if (slotCount < 1) {
            throw new IllegalArgumentException("need at least one parking slot, not " + slotCount);
        }
        slots = new Thread[slotCount];
    }

    /**
     * Registers a thread that is about to park. The caller must check for a completion after
     * this returns and before parking (the producer publishes, then checks for waiters).
     *
     * @return the slot to {@link #deregister} later, or -1 when every slot is taken
     */
    int register(Thread waiter) {
        for (int slot = 0; slot < slots.length; slot++) {
            if (SLOTS.getVolatile(slots, slot) == null && SLOTS.compareAndSet(slots, slot, null, waiter)) {
                REGISTERED.getAndAdd(this, 1);
                return slot;
            }
        }
        return -1;
    }

    /** Takes a waiter out again after it woke, unless a producer already took it out to wake it. */
    void deregister(int slot, Thread waiter) {
        if (SLOTS.compareAndSet(slots, slot, waiter, null)) {
            REGISTERED.getAndAdd(this, -1);
        }
    }

    /** One volatile read: the producer's whole cost when nobody waits. */
    boolean anyRegistered() {
        return registered != 0;
    }

    /**
     * Wakes every registered waiter, taking each out so that the next completion does not
     * unpark it again while it is still waking up.
     */
    void wakeAll() {
        for (int slot = 0; slot < slots.length; slot++) {
            Thread waiter = (Thread) SLOTS.getVolatile(slots, slot);
            if (waiter != null && SLOTS.compareAndSet(slots, slot, waiter, null)) {
                REGISTERED.getAndAdd(this, -1);
                LockSupport.unpark(waiter);
            }
        }
    }
}
