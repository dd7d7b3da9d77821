package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** The registry of parked consumers: counted while registered, woken and taken out once. */
class CompletionWaitersTest {

    @Test
    void nobodyIsRegisteredAtFirst() {
        assertFalse(new CompletionWaiters(2).anyRegistered());
    }

    @Test
    void aWaiterIsCountedUntilItDeregisters() {
        CompletionWaiters waiters = new CompletionWaiters(2);
        Thread self = Thread.currentThread();
        int slot = waiters.register(self);
        assertTrue(waiters.anyRegistered());
        waiters.deregister(slot, self);
        assertFalse(waiters.anyRegistered());
    }

    @Test
    void whenEverySlotIsTakenRegistrationSaysSo() {
        CompletionWaiters waiters = new CompletionWaiters(2);
        Thread self = Thread.currentThread();
        int first = waiters.register(self);
        int second = waiters.register(new Thread(() -> { }));
        assertEquals(1, first + second, "slots 0 and 1");
        assertEquals(-1, waiters.register(self));
    }

    @Test
    void wakeAllUnparksAndTakesOutEveryWaiterOnce() throws InterruptedException {
        CompletionWaiters waiters = new CompletionWaiters(4);
        Thread parked = new Thread(() -> {
            int slot = waiters.register(Thread.currentThread());
            LockSupport.park(); // a spurious return only ends the test early: the assertions still hold
            waiters.deregister(slot, Thread.currentThread());
        });
        parked.start();
        while (parked.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
        assertTrue(waiters.anyRegistered());
        waiters.wakeAll();
        assertFalse(waiters.anyRegistered(), "taken out by the waker");
        parked.join();
        assertFalse(waiters.anyRegistered(), "its own deregistration did not count it out twice");
        int slot = waiters.register(Thread.currentThread());
        assertTrue(waiters.anyRegistered(), "the count is not negative");
        waiters.deregister(slot, Thread.currentThread());
    }

    @Test
    void atLeastOneSlot() {
        assertThrows(IllegalArgumentException.class, () -> new CompletionWaiters(0));
    }
}
