package io.extsock.core.engine;

import io.extsock.spi.AcceptedAhead;
import java.io.IOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The connections a listener negotiated ahead of accept, waiting for the application to take
 * them, at most {@code backlog} of them: the acceptor's thread adds, the application's {@code
 * accept} takes, as the kernel's accept queue between TCP's handshake and {@code accept}.
 */
final class AcceptedQueue {

    private final int backlog;
    /** Called when a take made room in a full queue: the acceptor accepts again. */
    private final Runnable roomAgain;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    /** Negotiated, not yet taken; guarded by {@link #lock}. */
    private final ArrayDeque<AcceptedAhead> ready = new ArrayDeque<>();
    /** Guarded by {@link #lock}. */
    private boolean closed;
    /** Why the acceptor stopped, if not by a close; guarded by {@link #lock}. */
    private IOException stoppedBy;

    AcceptedQueue(int backlog, Runnable roomAgain) {
        this.backlog = Math.max(1, backlog);
        this.roomAgain = roomAgain;
    }

    /**
     * Takes the next connection, waiting for one as {@code ServerSocket.accept} does (an
     * interrupt does not end the wait; it stays set).
     *
     * @param timeoutMillis 0 to wait forever
     * @throws SocketException if the socket is closed or its acceptor stopped
     * @throws SocketTimeoutException if none came in time
     */
    AcceptedAhead take(long timeoutMillis) throws IOException {
        long deadline = timeoutMillis > 0 ? System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis) : 0;
        boolean interrupted = false;
        boolean wasFull;
        AcceptedAhead next;
        lock.lock();
        try {
            while (ready.isEmpty()) {
                throwIfStopped();
                try {
                    if (deadline == 0) {
                        arrived.await();
                    } else {
                        long remaining = deadline - System.nanoTime();
                        if (remaining <= 0) {
                            throw new SocketTimeoutException("Accept timed out");
                        }
                        arrived.awaitNanos(remaining);
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            wasFull = ready.size() >= backlog;
            next = ready.poll();
        } finally {
            lock.unlock();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        if (wasFull) {
            roomAgain.run();
        }
        return next;
    }

    /** Holding the lock: why nothing more will come, if so. */
    private void throwIfStopped() throws SocketException {
        if (closed) {
            throw new SocketException("Socket is closed");
        }
        if (stoppedBy != null) {
            SocketException stopped = new SocketException("the server socket stopped accepting: "
                    + stoppedBy.getMessage());
            stopped.initCause(stoppedBy);
            throw stopped;
        }
    }

    /** Whether another connection may be negotiated to wait here. */
    boolean hasRoom() {
        lock.lock();
        try {
            return ready.size() < backlog;
        } finally {
            lock.unlock();
        }
    }

    /** A connection negotiated (or fallen back): it waits to be taken; closed, it is discarded. */
    void add(AcceptedAhead connection) {
        lock.lock();
        try {
            if (!closed) {
                ready.add(connection);
                arrived.signal();
                return;
            }
        } finally {
            lock.unlock();
        }
        connection.discard();  // closed meanwhile: nobody will take it
    }

    /** The socket closed: waiting takers fail at once. */
    void close() {
        lock.lock();
        try {
            closed = true;
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The acceptor stopped: takers fail from now on (with the failure, if any).
     *
     * @return the connections nobody took, for the caller to discard
     */
    List<AcceptedAhead> stop(IOException failure) {
        lock.lock();
        try {
            stoppedBy = failure;
            closed |= failure == null;
            List<AcceptedAhead> untaken = new ArrayList<>(ready);
            ready.clear();
            arrived.signalAll();
            return untaken;
        } finally {
            lock.unlock();
        }
    }
}
