package io.extsock.core.engine;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Who reads one connection's socket: the engine's progress thread, or the application threads
 * that wait on it. One state ({@link Reader}) and the inputs that move it; no I/O, no threads,
 * the clock handed in, so every transition is tested without a socket.
 *
 * <p>The engine reads a new connection. A platform thread that waits takes reading for itself
 * (one wake-up per message, as with TCP). A connection used through its streams alone then stays
 * with its readers ({@link Reader#APPLICATION}), as a TCP socket does: what arrives while nobody
 * waits stays in the socket. Once something must progress while nobody waits ({@link
 * #progressWhileIdle}: the verbs are in use, or stream writes wait for credits), or a virtual
 * thread waits (it parks rather than reading), or a selector watches its readiness (it waits
 * for events, not on the socket), the engine takes reading back once no platform
 * thread has waited for {@link #HANDBACK_NANOS} ({@link Reader#HANDING_BACK}, ticked by the
 * progress thread through {@link #tick}).
 *
 * <p>The state is a guide for the progress thread's read interest, not a lock: for an instant
 * both may read (a wait that begins as the engine takes reading back), and the receive lock
 * keeps their reads apart; whoever reads wakes the other.
 */
final class ReadingOwnership {

    /** Who reads the socket. */
    enum Reader {
        /** The progress thread: its read interest is on. */
        ENGINE,
        /** The threads that wait on the connection, and nobody while none does. */
        APPLICATION,
        /** The waiting threads for now; the progress thread takes over after a quiet. */
        HANDING_BACK
    }

    /** What a tick of the progress thread found, and what it must do about the read interest. */
    enum Tick {
        /** Nothing more to watch: the engine reads already, or the connection ended. */
        DONE,
        /** The engine reads from now on: turn the read interest on and read what came meanwhile. */
        TAKEN_BACK,
        /** Nothing must progress while nobody waits any more: the reading stays with the waiters, interest off. */
        LEFT_TO_READERS,
        /** A hand-back counts down, or waits come and go: tick again within a millisecond. */
        SOON,
        /** One wait lasts: tick whenever; its end wakes a slowly ticking thread ({@link #platformWaitEnds}). */
        WHENEVER;

        /** Whether the connection needs no more ticks. */
        boolean ends() {
            return this == DONE || this == TAKEN_BACK || this == LEFT_TO_READERS;
        }
    }

    /** What the progress thread does once it learns that a platform thread took reading. */
    enum AfterWaitBegan {
        /** Nothing: the engine reads again already. */
        NOTHING,
        /** Turn the read interest off; nothing hands back. */
        INTEREST_OFF,
        /** Turn the read interest off and watch for the moment to take reading back. */
        INTEREST_OFF_AND_WATCH,
        /** Keep the interest (the waiter left; the hand-back settles it) and watch. */
        WATCH
    }

    /** How long the engine leaves reading to the application after its last waiter left. */
    static final long HANDBACK_NANOS = 1_000_000;

    private final AtomicReference<Reader> reader = new AtomicReference<>(Reader.ENGINE);
    /** Platform threads waiting now: they read inline. */
    private final AtomicInteger waiters = new AtomicInteger();
    /** Virtual threads waiting now: they park and leave the reading to the engine. */
    private final AtomicInteger parked = new AtomicInteger();
    /** Readiness watches now (selectors): as parked threads, they leave the reading to the engine. */
    private final AtomicInteger watches = new AtomicInteger();
    /** Something must progress while nobody waits; once set, never cleared. */
    private volatile boolean progressWhileIdle;
    /**
     * The platform waits begun: the tick takes reading back once it finds it unchanged for
     * {@link #HANDBACK_NANOS}. A count, not a clock read per wait (each read of the clock cost a
     * system-call-sized slice of a round trip); racy increments only ever change it, which is all
     * the tick asks.
     */
    private volatile int waitsBegun;
    /** Progress thread: {@link #waitsBegun} as its tick last saw it, and since when nothing changed. */
    private int waitsSeen;
    private long quietSince;
    /** Progress thread: whether it ticks this connection. */
    private boolean watched;

    Reader reader() {
        return reader.get();
    }

    /** Whether the engine reads now (its read interest is, or is about to be, on). */
    boolean engineReads() {
        return reader.get() == Reader.ENGINE;
    }

    /** Whether a platform thread waits now (and so reads inline). */
    boolean platformWaiting() {
        return waiters.get() > 0;
    }

    /** Whether a virtual thread waits now (parked, for a signal). */
    boolean parkedWaiting() {
        return parked.get() > 0;
    }

    /** Whether more than one waits: what one thread receives may be what another, or a watch, waits for. */
    boolean othersWaiting() {
        return waiters.get() > 1 || parked.get() > 0 || watches.get() > 0;
    }

    /** Whether reading comes back to the engine once no platform thread waits. */
    boolean handsBackWhenIdle() {
        return progressWhileIdle || parked.get() > 0 || watches.get() > 0;
    }

    /**
     * A platform thread begins a wait (it reads inline).
     *
     * @return whether the engine was reading: the caller has the progress thread learn of it
     *     ({@link #afterWaitBegan})
     */
    boolean platformWaitBegins() {
        waiters.incrementAndGet();
        waitsBegun++;
        return applicationReads();
    }

    /**
     * A platform thread's wait ended.
     *
     * @param tickStretched whether the progress thread ticks slower than every millisecond now
     * @return whether to wake the progress thread: the last wait ended while it ticks slowly
     *     (the wait counts as one begun, so the hand-back waits its full quiet from now)
     */
    boolean platformWaitEnds(boolean tickStretched) {
        if (waiters.decrementAndGet() == 0 && handsBackWhenIdle() && tickStretched) {
            waitsBegun++;
            return true;
        }
        return false;
    }

    /**
     * An application thread reads for itself: the engine, if it read, stops (found reading
     * inline, or beginning a wait).
     *
     * @return whether the engine was reading: the caller has the progress thread learn of it
     */
    boolean applicationReads() {
        return reader.compareAndSet(Reader.ENGINE, handsBackWhenIdle() ? Reader.HANDING_BACK : Reader.APPLICATION);
    }

    /**
     * A virtual thread begins a wait (it parks; the engine reads for it).
     *
     * @return whether the engine does not read now: the caller has the progress thread watch for
     *     the hand-back ({@link #watch})
     */
    boolean parkedWaitBegins() {
        parked.incrementAndGet();
        return handBackSoon();
    }

    void parkedWaitEnds() {
        parked.decrementAndGet();
    }

    /**
     * A selector begins to watch the connection's readiness (it waits for events, and the
     * engine reads for it), until {@link #watchEnds}.
     *
     * @return whether the engine does not read now: the caller has the progress thread watch for
     *     the hand-back ({@link #watch})
     */
    boolean watchBegins() {
        watches.incrementAndGet();
        return handBackSoon();
    }

    void watchEnds() {
        watches.decrementAndGet();
    }

    /** Reading comes back to the engine after the quiet; whether it is not back yet. */
    private boolean handBackSoon() {
        reader.compareAndSet(Reader.APPLICATION, Reader.HANDING_BACK);
        return reader.get() != Reader.ENGINE;
    }

    /**
     * From now on the connection progresses while nobody waits.
     *
     * @return whether this changed anything and the engine does not read now: the caller has the
     *     progress thread watch for the hand-back ({@link #watch})
     */
    boolean progressWhileIdle() {
        if (progressWhileIdle) {
            return false;
        }
        progressWhileIdle = true;
        return handBackSoon();
    }

    /**
     * Progress thread, learning that a platform thread took reading ({@link #platformWaitBegins}):
     * what it does with the read interest. A connection that hands back keeps the interest when
     * its waiter has left already, since the hand-back settles it; one used through its streams
     * alone never hands back, so it is left to its readers even if their wait is over (it often
     * is: this runs up to a millisecond after the wait began).
     */
    AfterWaitBegan afterWaitBegan() {
        boolean handsBack = handsBackWhenIdle();
        boolean interestOff = reader.get() != Reader.ENGINE && (waiters.get() > 0 || !handsBack);
        if (handsBack) {
            return interestOff ? AfterWaitBegan.INTEREST_OFF_AND_WATCH : AfterWaitBegan.WATCH;
        }
        return interestOff ? AfterWaitBegan.INTEREST_OFF : AfterWaitBegan.NOTHING;
    }

    /**
     * Progress thread: starts ticking this connection for the hand-back (the quiet counts from
     * {@code now} at the earliest).
     *
     * @return whether it was not ticked yet: the caller adds it to the ticked ones
     */
    boolean watch(long now) {
        if (watched) {
            return false;
        }
        watched = true;
        waitsSeen = waitsBegun;
        quietSince = now;
        return true;
    }

    /**
     * Progress thread, on its tick: takes reading back once no platform thread has waited for
     * {@link #HANDBACK_NANOS}, between one and two ticks' worth after the last wait.
     *
     * @param now the tick's time ({@link System#nanoTime}), read once for all connections
     * @param ended whether the connection ended (nothing more to read)
     */
    Tick tick(long now, boolean ended) {
        Tick tick = nextTick(now, ended);
        if (tick.ends()) {
            watched = false;
        }
        return tick;
    }

    private Tick nextTick(long now, boolean ended) {
        if (ended || reader.get() == Reader.ENGINE) {
            return Tick.DONE;
        }
        if (!handsBackWhenIdle()) {
            // Used through its streams alone again (the virtual thread or the watch it handed back for left).
            reader.compareAndSet(Reader.HANDING_BACK, Reader.APPLICATION);
            return Tick.LEFT_TO_READERS;
        }
        reader.compareAndSet(Reader.APPLICATION, Reader.HANDING_BACK);
        int begun = waitsBegun;
        boolean waiting = waiters.get() > 0;
        if (waiting || begun != waitsSeen) {
            Tick next = waiting && begun == waitsSeen ? Tick.WHENEVER : Tick.SOON;
            waitsSeen = begun;
            quietSince = now;
            return next;
        }
        if (now - quietSince < HANDBACK_NANOS) {
            return Tick.SOON;
        }
        reader.set(Reader.ENGINE);
        return Tick.TAKEN_BACK;
    }
}
