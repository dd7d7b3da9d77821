package io.extsock.rdma.provider;

import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionHandler;
import io.extsock.verbs.CompletionQueue;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.CompletionView;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WorkOpcode;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** A device connection's completions, as the device's event thread polled them from its CQ. */
final class RdmaCompletionQueue implements CompletionQueue {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    /** Guarded by lock. */
    private final ArrayDeque<WorkCompletion> completions = new ArrayDeque<>();
    private final View view = new View();

    void add(WorkCompletion completion) {
        lock.lock();
        try {
            completions.add(completion);
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private WorkCompletion next() {
        lock.lock();
        try {
            return completions.poll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int poll(CompletionHandler handler, int max) {
        int handed = 0;
        WorkCompletion next;
        while (handed < max && (next = next()) != null) {
            view.current = next;
            handler.onCompletion(view);
            handed++;
        }
        return handed;
    }

    @Override
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        return waitFor(unit.toNanos(timeout), false) != null;
    }

    @Override
    public WorkCompletion take(long timeout, TimeUnit unit) throws InterruptedException {
        return waitFor(unit.toNanos(timeout), true);
    }

    /** Waits for a completion; takes it if asked. Returns null on timeout. */
    private WorkCompletion waitFor(long nanos, boolean take) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            long left = nanos;
            while (completions.isEmpty()) {
                if (left <= 0) {
                    return null;
                }
                left = notEmpty.awaitNanos(left);
            }
            return take ? completions.poll() : completions.peek();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int size() {
        lock.lock();
        try {
            return completions.size();
        } finally {
            lock.unlock();
        }
    }

    /** One completion at a time, as the handler sees it (reused: poll allocates nothing). */
    private static final class View implements CompletionView {
        WorkCompletion current;

        @Override
        public long tag() {
            return current.tag();
        }

        @Override
        public WorkOpcode opcode() {
            return current.opcode();
        }

        @Override
        public CompletionStatus status() {
            return current.status();
        }

        @Override
        public long byteLength() {
            return current.byteLength();
        }

        @Override
        public boolean solicited() {
            return current.solicited();
        }

        @Override
        public int invalidatedStag() {
            return current.invalidatedStag();
        }

        @Override
        public String detail() {
            return current.detail();
        }

        @Override
        public CompletionCause cause() {
            return current.cause();
        }
    }
}
