package io.extsock.core.engine;

import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * How the progress thread watches one connection: its selection key, the read and write
 * interest on it, and the ticks that take reading back once the application's threads stop
 * waiting ({@link ReadingOwnership} decides; this acts on it). The key and every change of
 * interest belong to the progress thread; other threads ask for them through its task queue.
 */
final class ProgressWatch {

    private final SocketChannel channel;
    private final ProgressThread progress;
    private final ReadingOwnership reading;
    /** What the progress thread serves when the key is ready: the key's attachment. */
    private final ChannelDriver connection;
    private SelectionKey key;

    /** {@link #stopWatchingInput()} as a task, made once: a task per call would be garbage on a hot path. */
    private final Runnable stopWatchingInput = this::stopWatchingInput;
    /** {@link #watchForHandback()} as a task, made once. */
    private final Runnable watchForHandback = this::watchForHandback;

    ProgressWatch(SocketChannel channel, ProgressThread progress, ReadingOwnership reading, ChannelDriver connection) {
        this.channel = channel;
        this.progress = progress;
        this.reading = reading;
        this.connection = connection;
    }

    /**
     * Progress thread: watches the channel for input from now on.
     *
     * @return false if the channel closed meanwhile
     */
    boolean register() {
        try {
            key = channel.register(progress.selector(), SelectionKey.OP_READ, connection);
            return true;
        } catch (ClosedChannelException e) {
            return false;
        }
    }

    /** Progress thread: stops watching the ended connection (its channel may stay open). */
    void cancel() {
        if (key != null) {
            key.cancel();
        }
    }

    /** The socket took less than offered: the progress thread resumes the write when it has room. */
    void watchForRoom() {
        progress.execute(() -> setInterest(readInterest() | SelectionKey.OP_WRITE));
    }

    /** Progress thread: the room came; watch for input only, as before. */
    void roomCame() {
        setInterest(readInterest());
    }

    /**
     * An application thread reads for itself (found reading inline): the progress thread stops
     * watching this channel for input and, on a connection that hands back, watches for the
     * moment to take it back. The one way back is {@link #tick}, which turns the read interest
     * on: were the engine said to read without the interest on, nobody would read it until an
     * application waited on it again. On a connection used through its streams alone that is
     * the point.
     */
    void applicationReads() {
        reading.applicationReads();
        platformWaitBegan();
    }

    /** A platform thread began a wait and took reading: the progress thread learns of it. */
    void platformWaitBegan() {
        progress.executeSoon(stopWatchingInput);  // meanwhile both may read: whoever does signals the other
    }

    /** Reading must come back to the engine once nobody waits: the progress thread ticks for it. */
    void handBackWhenQuiet() {
        progress.executeSoon(watchForHandback);
    }

    /** Progress thread: the other half of {@link #applicationReads} and {@link #platformWaitBegan}. */
    private void stopWatchingInput() {
        switch (reading.afterWaitBegan()) {
            case INTEREST_OFF -> changeInterest(0, SelectionKey.OP_READ);
            case INTEREST_OFF_AND_WATCH -> {
                changeInterest(0, SelectionKey.OP_READ);
                watchForHandback();
            }
            case WATCH -> watchForHandback();
            case NOTHING -> { }
        }
    }

    /** Progress thread: tick this connection until it is idle long enough to take its reading back. */
    private void watchForHandback() {
        if (reading.watch(System.nanoTime())) {
            progress.watchHandback(connection);
        }
    }

    /**
     * Progress thread, on its tick: takes reading back once no application thread has waited
     * for a while ({@link ReadingOwnership#tick}), and sets the read interest to match.
     *
     * @return what the tick found; on {@link ReadingOwnership.Tick#TAKEN_BACK} the caller reads
     *     what arrived while nobody watched
     */
    ReadingOwnership.Tick tick(long now, boolean ended) {
        ReadingOwnership.Tick tick = reading.tick(now, ended);
        switch (tick) {
            case LEFT_TO_READERS -> changeInterest(0, SelectionKey.OP_READ);
            case TAKEN_BACK -> changeInterest(SelectionKey.OP_READ, 0);
            default -> { }
        }
        return tick;
    }

    private int readInterest() {
        return reading.engineReads() ? SelectionKey.OP_READ : 0;
    }

    private void setInterest(int ops) {
        if (progress.isCurrentThread()) {
            changeInterest(ops, ~ops);
        } else {
            progress.execute(() -> setInterest(ops));
        }
    }

    /**
     * Progress thread: turns the key's {@code on} interests on and its {@code off} ones off. A
     * key that another thread's close cancelled, even between a validity check and the change,
     * has nothing left to watch.
     */
    private void changeInterest(int on, int off) {
        SelectionKey watched = key;
        if (watched == null) {
            return;
        }
        try {
            watched.interestOps((watched.interestOps() | on) & ~off);
        } catch (CancelledKeyException closedMeanwhile) {
            // see above
        }
    }
}
