package io.extsock.core.stream;

import io.extsock.core.verbs.QueuePair;

/**
 * What a stream's writer knows of the peer's receive window: the credits it holds (receive
 * buffers the peer posted for it, one spent by each DATA or FIN Send) and its DATA Sends on
 * their way to TCP. Guarded by the {@link StreamOutput}'s monitor.
 */
final class PeerWindow {

    /**
     * The most receive buffers a peer can have posted for our stream: what a receive queue
     * holds ({@link IwarpStream#MAX_PEER_RECEIVE_BUFFERS}; an extsock peer posts at most {@link
     * IwarpStream#MAX_RECEIVE_BUFFERS}). A peer that returns more credits than that breaks the
     * protocol.
     */
    static final int MAX_PEER_CREDITS = IwarpStream.MAX_PEER_RECEIVE_BUFFERS;

    /**
     * Credits DATA and FIN leave unspent: the peer's buffer that our CREDIT messages go into.
     * A CREDIT spends no credit of its own; the peer posts its buffer again at once and does not
     * count it as one to return. So an end can always return what it owes, whatever it holds:
     * were a CREDIT to spend the last credit, two ends each waiting for the other's credits
     * could say nothing to each other for good.
     */
    static final int RESERVE = 1;

    /** Credits a DATA or FIN Send needs before it goes: its own and the {@link #RESERVE}. */
    static final int CREDITS_TO_SEND = 1 + RESERVE;

    /**
     * DATA Sends posted and not yet handed to TCP, at most: a quarter of the send queue, which
     * leaves room for the CREDIT and the FIN and for the application's own Writes and Reads. A
     * writer with more credits than that waits for TCP to take what it posted, as a socket
     * write waits for room in the send buffer (64 KiB each: 8 MiB, more than TCP takes at once).
     */
    static final int MAX_DATA_SENDS_IN_FLIGHT = QueuePair.SEND_QUEUE_DEPTH / 4;

    private int credits;
    /** The most credits held at once: the peer's window, as far as we can know it. */
    private int window;
    /** DATA Sends not yet completed. */
    private int dataSendsOutstanding;
    /** DATA Sends posted and completed since the start: which one carries the batch, and when it left. */
    private long dataSendsPosted;
    private long dataSendsCompleted;
    /** Credits the peer returned since the start. */
    private long creditsReceived;

    /** @param credits the receive buffers the peer announced */
    PeerWindow(int credits) {
        this.credits = credits;
        this.window = credits;
    }

    int credits() {
        return credits;
    }

    /** Whether a DATA or FIN Send may spend a credit now. */
    boolean canSend() {
        return credits >= CREDITS_TO_SEND;
    }

    /**
     * Whether half the peer's window or more is spent, so that small writes wait in the batch,
     * to go together when credits come back, rather than spend the rest a credit each (each
     * credit is a whole buffer of the peer's, whatever a Send carries). Safe from deadlock: the
     * peer returns credits once half its buffers are read out ({@link StreamInput}), and with at
     * most half our credits left, reading what it holds gets it there.
     */
    boolean low() {
        return credits <= window / 2;
    }

    /** Whether another DATA Send may be posted before TCP takes those on their way. */
    boolean sendSlotFree() {
        return dataSendsOutstanding < MAX_DATA_SENDS_IN_FLIGHT;
    }

    /** Whether every DATA Send posted has been handed to TCP (or failed). */
    boolean allDataSent() {
        return dataSendsOutstanding == 0;
    }

    int dataSendsOutstanding() {
        return dataSendsOutstanding;
    }

    /** Whether a further DATA Send could be posted at once, so that the transmit may wait for it. */
    boolean moreCanFollowAtOnce() {
        return canSend() && sendSlotFree();
    }

    /** Takes a credit and a send slot for a DATA Send (the caller checked both); its number. */
    long takeDataSend() {
        credits--;
        dataSendsOutstanding++;
        return ++dataSendsPosted;
    }

    /** Takes a credit for the FIN. */
    void takeFin() {
        credits--;
    }

    /** A DATA Send was refused before it was queued: its slot is free again. */
    void dataSendRefused() {
        dataSendsOutstanding--;
    }

    /** A DATA Send left (or failed): the number of DATA Sends completed since the start. */
    long dataSendCompleted() {
        dataSendsOutstanding--;
        return ++dataSendsCompleted;
    }

    /** The peer returned {@code count} credits (checked with {@link #violation}). */
    void returned(int count) {
        credits += count;
        window = Math.max(window, credits);
        creditsReceived += count;
    }

    long creditsReceived() {
        return creditsReceived;
    }

    /**
     * What is wrong with the peer returning {@code count} credits now, or null: no peer has more
     * buffers posted than a receive queue holds ({@link #MAX_PEER_CREDITS}). Summed without that
     * bound, credits would overflow and every writer wait for good.
     */
    String violation(int count) {
        if (count <= MAX_PEER_CREDITS - credits) {
            return null;
        }
        return "it returned " + count + " stream credits on top of " + credits + ", more receive buffers than it"
                + " can have posted (" + MAX_PEER_CREDITS + ")";
    }
}
