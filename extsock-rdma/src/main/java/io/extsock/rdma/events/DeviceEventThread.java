package io.extsock.rdma.events;

import io.extsock.rdma.ffi.Libc;
import io.extsock.rdma.ffi.RdmaConstants;
import io.extsock.rdma.ffi.RdmaStructs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * One platform thread per device that does the device's blocking waits, so that no caller's
 * thread (a virtual thread least of all) ever blocks inside rdma_get_cm_event or
 * ibv_get_cq_event. It polls every watched source's descriptor and an eventfd that wakes it for
 * changes; for each readable source it takes events (each acknowledged as it is taken) and
 * hands them to the source's handler.
 *
 * <p>Destroying follows from that: {@link #unwatch} returns only once the thread will not touch
 * the source again, and every event the thread took was acknowledged before its handler ran; so
 * after {@code unwatch} the caller may destroy the identifier or the CQ (whose destruction
 * waits for acknowledgements) without a deadlock, from any thread, the event thread included.
 *
 * <p>State: the watched list and the poll array belong to the event thread alone; other threads
 * only add changes to a queue and signal the eventfd.
 */
public final class DeviceEventThread implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(DeviceEventThread.class.getName());
    private static final long POLLFD_SIZE = RdmaStructs.POLLFD.size();
    private static final long POLLFD_FD = RdmaStructs.POLLFD.offset("fd");
    private static final long POLLFD_EVENTS = RdmaStructs.POLLFD.offset("events");
    private static final long POLLFD_REVENTS = RdmaStructs.POLLFD.offset("revents");

    /** A source and its handler, while watched. */
    private static final class Watch<E> {
        final EventSource<E> source;
        final EventHandler<? super E> handler;
        volatile boolean watched = true;

        Watch(EventSource<E> source, EventHandler<? super E> handler) {
            this.source = source;
            this.handler = handler;
        }

        /** Takes and hands over events until none waits or the watch ends. */
        void drain() {
            while (watched) {
                E event;
                try {
                    event = source.take();
                } catch (IOException failure) {
                    watched = false;
                    try {
                        handler.onFailure(failure);
                    } catch (RuntimeException | Error e) {
                        LOG.log(System.Logger.Level.WARNING, "the failure handler of " + source + " threw", e);
                    }
                    return;
                }
                if (event == null) {
                    return;
                }
                try {
                    handler.onEvent(event);
                } catch (RuntimeException | Error e) {
                    LOG.log(System.Logger.Level.WARNING, "an event handler of " + source + " threw", e);
                }
            }
        }
    }

    /** A change another thread asked for; done when the event thread made it. */
    private record Change(Watch<?> watch, boolean add, CompletableFuture<Void> done) {
    }

    private final int wakeFd;
    private final Thread thread;
    private final Queue<Change> changes = new ConcurrentLinkedQueue<>();
    private final List<Watch<?>> watches = new ArrayList<>();
    private volatile boolean closing;
    /** Guards {@link #stopped}: no change is queued after the thread's last look at the queue. */
    private final Object lock = new Object();
    private boolean stopped;
    private boolean wakeFdClosed;

    /**
     * Starts the thread.
     *
     * @param device the device's name, for the thread's name
     * @throws IOException if the wake-up eventfd cannot be made
     */
    public DeviceEventThread(String device) throws IOException {
        wakeFd = Libc.eventfd();
        thread = Thread.ofPlatform().name("extsock-rdma-events-" + device).daemon().unstarted(this::run);
        thread.start();
    }

    /**
     * Starts watching a source.
     *
     * @param source  the source; the thread polls its descriptor from now on
     * @param handler what its events go to, on the event thread
     * @param <E>     the event
     * @return the watch, for {@link #unwatch}
     * @throws IllegalStateException if the thread was closed
     */
    public <E> Object watch(EventSource<E> source, EventHandler<? super E> handler) {
        Watch<E> watch = new Watch<>(source, handler);
        change(watch, true);
        return watch;
    }

    /**
     * Stops watching a source. When this returns, the event thread will not take from the
     * source again, nor call its handler; every event it took was acknowledged. Waits for the
     * event thread when called from another thread; from a handler, returns at once.
     *
     * @param watch what {@link #watch} returned
     */
    public void unwatch(Object watch) {
        Watch<?> w = (Watch<?>) watch;
        w.watched = false;
        if (Thread.currentThread() == thread) {
            watches.remove(w);
            return;
        }
        change(w, false);
    }

    private void change(Watch<?> watch, boolean add) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        synchronized (lock) {
            if (stopped) {
                if (add) {
                    throw new IllegalStateException(thread.getName() + " is closed");
                }
                return;
            }
            changes.add(new Change(watch, add, done));
            if (Thread.currentThread() == thread) {
                applyChanges();
                return;
            }
            // Under the lock, so that close cannot have closed the eventfd in between.
            wake();
        }
        // The thread completes every change queued before it stopped, on its way out too.
        done.join();
    }

    private void wake() {
        try {
            Libc.signal(wakeFd);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the thread, for tests that check where handlers run */
    Thread thread() {
        return thread;
    }

    private void applyChanges() {
        for (Change change; (change = changes.poll()) != null; ) {
            if (change.add() && !closing) {
                watches.add(change.watch());
            } else {
                watches.remove(change.watch());
            }
            change.done().complete(null);
        }
    }

    private void run() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pollfds = MemorySegment.NULL;
            int capacity = 0;
            while (!closing) {
                applyChanges();
                int count = watches.size() + 1;
                if (count > capacity) {
                    capacity = Math.max(count, capacity * 2);
                    pollfds = arena.allocate(POLLFD_SIZE * capacity, 8);
                }
                entry(pollfds, 0, wakeFd);
                List<Watch<?>> polled = List.copyOf(watches);
                for (int i = 0; i < polled.size(); i++) {
                    entry(pollfds, i + 1, polled.get(i).source.fd());
                }
                if (Libc.poll(pollfds, count, -1) <= 0) {
                    continue;
                }
                if (revents(pollfds, 0) != 0) {
                    Libc.drain(wakeFd);
                }
                for (int i = 0; i < polled.size() && !closing; i++) {
                    Watch<?> watch = polled.get(i);
                    if (revents(pollfds, i + 1) != 0 && watch.watched) {
                        watch.drain();
                        if (!watch.watched) {
                            watches.remove(watch);
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            LOG.log(System.Logger.Level.ERROR, thread.getName() + " stopped", e);
        } finally {
            synchronized (lock) {
                stopped = true;
                closing = true;
                applyChanges();
                watches.clear();
            }
        }
    }

    private static void entry(MemorySegment pollfds, int index, int fd) {
        MemorySegment entry = pollfds.asSlice(index * POLLFD_SIZE, POLLFD_SIZE);
        entry.set(ValueLayout.JAVA_INT, POLLFD_FD, fd);
        entry.set(ValueLayout.JAVA_SHORT, POLLFD_EVENTS, RdmaConstants.POLLIN);
        entry.set(ValueLayout.JAVA_SHORT, POLLFD_REVENTS, (short) 0);
    }

    private static short revents(MemorySegment pollfds, int index) {
        return pollfds.get(ValueLayout.JAVA_SHORT, index * POLLFD_SIZE + POLLFD_REVENTS);
    }

    /**
     * Stops the thread and waits for it to end; every source is then unwatched. Call it from
     * outside the thread (a handler cannot wait for its own thread to end).
     *
     * @throws IllegalStateException if called from the event thread
     */
    @Override
    public void close() throws IOException {
        if (Thread.currentThread() == thread) {
            throw new IllegalStateException("close " + thread.getName() + " from outside it, not from a handler");
        }
        synchronized (lock) {
            if (wakeFdClosed) {
                return;
            }
            closing = true;
            wake();
        }
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while " + thread.getName() + " was stopping", e);
        }
        synchronized (lock) {
            if (!wakeFdClosed) {
                wakeFdClosed = true;
                Libc.close(wakeFd);
            }
        }
    }
}
