package io.extsock.core.engine;

import io.extsock.internal.nio.PlatformProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * One of the engine's few threads: a Selector loop that makes its connections progress when
 * their applications are not driving them (one-sided operations arriving, backpressure
 * clearing, completions to produce). It owns its Selector and the keys registered with it.
 *
 * <p>Other threads never touch the Selector directly: they queue a task and wake the loop. That
 * wake-up costs ~15-20 µs, so it happens only for changes (a new connection, a transmit that
 * hit backpressure), never once per operation; and for changes that can wait a millisecond (a
 * connection to watch, to stop watching, to linger), only if the loop would not run by then
 * anyway ({@link #executeSoon}).
 */
final class ProgressThread implements Runnable {

    private final Selector selector;
    private final Thread thread;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    /**
     * Connections whose reading applications do for now and that hand back when idle (see
     * {@code ChannelDriver.progressWhileIdle}): checked for hand-back on each tick. A
     * list walked by index (a set's iterator would be garbage on every tick); each connection
     * is in it at most once ({@link ReadingOwnership#watch} says when to add it).
     */
    private final ArrayList<ChannelDriver> handingBack = new ArrayList<>();

    /**
     * The keys a select found ready, served after the queued tasks (which may change what the
     * keys mean). Collected by an action rather than through the selected-key set, whose
     * HashSet allocates a node per ready key per select.
     */
    private final ArrayList<SelectionKey> ready = new ArrayList<>();
    private final Consumer<SelectionKey> collectReady = ready::add;

    /**
     * The hand-back tick's period: a millisecond while hand-backs count down or waits come and
     * go; doubling, up to {@link #LONGEST_TICK_MILLIS}, while every connection watched has one
     * wait that lasts (an application thread blocked in a read for minutes, say), whose end then
     * wakes this thread ({@link #tickStretched}). Before, an idle JVM whose connections each had
     * a reader blocked ticked a thousand times a second: 4-8% of a CPU for 10 to 500 of them.
     */
    private long tickMillis = 1;
    private volatile boolean tickStretched;
    static final long LONGEST_TICK_MILLIS = 256;

    /** How late a task of {@link #executeSoon} may run. */
    static final long LAZY_NANOS = 1_000_000;
    /**
     * How long the loop keeps ticking every millisecond after it last ran a task: while
     * connections come and go, their tasks for soon ({@link #executeSoon}) then find it awake
     * within the millisecond they may wait, and wake it not at all, where each would otherwise
     * wake a loop that had gone to sleep after the last. Ten ticks of ~5 µs after a burst.
     */
    static final long BUSY_TICKING_NANOS = 10_000_000;
    /** Until when ({@link System#nanoTime}) the loop ticks every millisecond; this thread's. */
    private long tickingUntil;
    /** {@link #sleepingUntil} while the loop runs (it looks at its tasks before it selects again). */
    private static final long AWAKE = Long.MIN_VALUE;
    /** How long a select may wait when nothing is due: far enough to count as forever. */
    private static final long FOREVER_NANOS = Long.MAX_VALUE / 4;
    /** When the loop's select ends at the latest ({@link System#nanoTime}), or {@link #AWAKE}. */
    private volatile long sleepingUntil = AWAKE;

    /** Delayed tasks by deadline; only this thread touches it. */
    private final PriorityQueue<Timed> timers = new PriorityQueue<>();
    private volatile boolean running = true;
    /** {@link #discardBuffer}, made at the first lingering close. */
    private ByteBuffer discard;
    private static final int DISCARD_BUFFER_SIZE = 16 * 1024;

    private record Timed(long deadline, Runnable task) implements Comparable<Timed> {
        @Override
        public int compareTo(Timed other) {
            return Long.compare(deadline, other.deadline);
        }
    }

    ProgressThread(String name) {
        tickingUntil = System.nanoTime();  // not ticking yet (nanoTime may be negative: no 0)
        try {
            this.selector = PlatformProvider.get().openSelector();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector for the iWARP engine", e);
        }
        this.thread = new Thread(this, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Runs the task on this thread, at once: wakes the loop if it waits. */
    void execute(Runnable task) {
        tasks.add(task);
        if (!isCurrentThread()) {
            selector.wakeup();
        }
    }

    /**
     * Runs the task on this thread within {@link #LAZY_NANOS}: wakes the loop only if its
     * select would last longer. While connections are being set up, closed or handed back the
     * loop ticks every millisecond anyway, and each wake-up spared is ~5-15 µs of CPU on each
     * side (the writer's eventfd write, the loop's return from epoll and its drain).
     */
    void executeSoon(Runnable task) {
        tasks.add(task);
        wakeUnlessAwakeBy(System.nanoTime() + LAZY_NANOS);
    }

    /** Runs the task on this thread after the delay (a wake-up only if the loop would sleep past it). */
    void schedule(long delayMillis, Runnable task) {
        long deadline = System.nanoTime() + delayMillis * 1_000_000L;
        if (isCurrentThread()) {
            timers.add(new Timed(deadline, task));  // the loop looks at its timers before it selects
            return;
        }
        tasks.add(() -> timers.add(new Timed(deadline, task)));
        wakeUnlessAwakeBy(deadline);
    }

    /**
     * Wakes the loop unless it runs now or its select ends by {@code deadline} on its own. The
     * loop publishes its select's end before it checks for tasks, and the caller queued its task
     * before it reads that end: either the caller sees the end and wakes the loop, or the loop
     * sees the task and does not sleep.
     */
    private void wakeUnlessAwakeBy(long deadline) {
        if (isCurrentThread()) {
            return;
        }
        long until = sleepingUntil;
        if (until != AWAKE && until - deadline > 0) {
            selector.wakeup();
        }
    }

    /** This thread: tick the connection until its reading comes back here (once per watch). */
    void watchHandback(ChannelDriver connection) {
        handingBack.add(connection);
    }

    /** Ticks the connections handing back: keeps, in order, those that still need the tick. */
    private void tickHandbacks() {
        if (handingBack.isEmpty()) {
            tickMillis = 1;
            tickStretched = false;
            return;
        }
        // Said before looking: a wait that ends from here on either is seen ending below or sees
        // this and wakes the thread (ChannelDriver.await), so none ends unnoticed for long.
        tickStretched = true;
        long now = System.nanoTime();
        boolean soon = false;
        int kept = 0;
        for (int i = 0; i < handingBack.size(); i++) {
            ChannelDriver connection = handingBack.get(i);
            ReadingOwnership.Tick next = connection.handbackIfIdle(now);
            if (!next.ends()) {
                handingBack.set(kept++, connection);
                soon |= next == ReadingOwnership.Tick.SOON;
            }
        }
        for (int i = handingBack.size() - 1; i >= kept; i--) {
            handingBack.remove(i);
        }
        if (soon || handingBack.isEmpty()) {
            tickMillis = 1;
            tickStretched = false;
        } else {
            tickMillis = Math.min(2 * tickMillis, LONGEST_TICK_MILLIS);
        }
    }

    /** Whether the hand-back tick is slower than a millisecond now: the end of a wait must say so. */
    boolean tickStretched() {
        return tickStretched;
    }

    /** The hand-back tick's period now, in milliseconds (its thread's; for tests, racy). */
    long tickMillis() {
        return tickMillis;
    }

    /** Wakes the loop (from another thread) for a tick now. */
    void wakeUp() {
        selector.wakeup();
    }

    /**
     * When the loop's select ends at the latest ({@link System#nanoTime}), or {@link
     * Long#MIN_VALUE} while it runs; racy, for tests.
     */
    long sleepingUntil() {
        return sleepingUntil;
    }

    /** Whether the caller is this progress thread. */
    boolean isCurrentThread() {
        return Thread.currentThread() == thread;
    }

    Selector selector() {
        return selector;
    }

    /** Where the lingering closes of this thread's connections drop what still arrives. */
    ByteBuffer discardBuffer() {
        if (discard == null) {
            discard = ByteBuffer.allocateDirect(DISCARD_BUFFER_SIZE);
        }
        return discard;
    }

    @Override
    public void run() {
        while (running) {
            try {
                Timed next = timers.peek();
                long waitMillis = next == null ? 0 : Math.max(1, (next.deadline - System.nanoTime()) / 1_000_000);
                if (!handingBack.isEmpty()) {
                    waitMillis = waitMillis == 0 ? tickMillis : Math.min(waitMillis, tickMillis);  // the hand-back tick
                }
                long now = System.nanoTime();
                if (now - tickingUntil < 0) {
                    waitMillis = 1;  // tasks came lately: more may come (see BUSY_TICKING_NANOS)
                }
                sleepingUntil = now + (waitMillis == 0 ? FOREVER_NANOS : waitMillis * 1_000_000L);
                if (!tasks.isEmpty() || next != null && next.deadline - now <= 0) {
                    selector.selectNow(collectReady);  // a task came after the last runTasks, or a timer is due
                } else {
                    selector.select(collectReady, waitMillis);
                }
                sleepingUntil = AWAKE;
                runTasks();
                runDueTimers();
                tickHandbacks();
                for (int i = 0; i < ready.size(); i++) {
                    serve(ready.get(i));
                }
                ready.clear();
            } catch (IOException | RuntimeException e) {
                // A selector failure must not kill the engine: connections report their own errors.
                System.getLogger(ProgressThread.class.getName()).log(System.Logger.Level.ERROR,
                        "iWARP progress thread error", e);
            }
        }
    }

    private void runDueTimers() {
        long now = System.nanoTime();
        Timed next;
        while ((next = timers.peek()) != null && next.deadline - now <= 0) {
            timers.poll().task.run();
        }
    }

    private void runTasks() {
        Runnable task = tasks.poll();
        if (task == null) {
            return;
        }
        tickingUntil = System.nanoTime() + BUSY_TICKING_NANOS;
        do {
            task.run();
        } while ((task = tasks.poll()) != null);
    }

    private static void serve(SelectionKey key) {
        if (key.attachment() instanceof LingeringClose lingering) {
            lingering.onReadable();
            return;
        }
        ChannelDriver connection = (ChannelDriver) key.attachment();
        try {
            int ready = key.readyOps();
            if ((ready & SelectionKey.OP_WRITE) != 0) {
                connection.onWritable();
            }
            if ((ready & SelectionKey.OP_READ) != 0) {
                connection.onReadable();
            }
        } catch (CancelledKeyException e) {
            // closed meanwhile
        }
    }

    void shutdown() {
        running = false;
        selector.wakeup();
    }
}
