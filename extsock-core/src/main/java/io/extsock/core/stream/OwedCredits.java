package io.extsock.core.stream;

/**
 * The credits a stream's reading end owes the peer: receive buffers posted again, or new ones,
 * that the peer has not been told of yet. They ride on the next Send of ours, or go in a CREDIT
 * message once half the window is owed (or at once, for a grown window). Guarded by the {@link
 * StreamInput}'s monitor.
 *
 * <p>Each credit is also counted from the moment it is decided on (a buffer read out, one
 * whose payload was appended behind unread octets or that held none, the window grown) until
 * a Send takes it, so that a test can tell which credits are still on their way to the peer
 * ({@link #onTheirWay}).
 */
final class OwedCredits {

    private int owed;
    /** The owed credits go now: a CREDIT was asked for and has not taken them yet. */
    private boolean updateDue;
    /** Credits decided on and taken into Sends since the stream started. */
    private long decided;
    private long taken;

    /** {@code count} buffers are to go back to the peer (or to it for the first time): posted, they are owed. */
    void decided(int count) {
        decided += count;
    }

    /** Buffers decided on that will not be posted: the memory budget refused a growth. */
    void withdrawn(int count) {
        decided -= count;
    }

    /**
     * A buffer was posted again.
     *
     * @param window the buffers posted: with half of them owed, a CREDIT takes them back now
     * @return whether a CREDIT is to go now
     */
    boolean reposted(int window) {
        owed++;
        if (owed >= window / 2) {
            updateDue = true;
            return true;
        }
        return false;
    }

    /** New buffers were posted: the peer is told of them now, in a CREDIT. */
    void grown(int count) {
        owed += count;
        updateDue = true;
    }

    boolean any() {
        return owed > 0;
    }

    /** Credits owed, now. */
    int owed() {
        return owed;
    }

    /** Takes what is owed to ride on an outgoing Send (at most what its header holds). */
    int take() {
        int credits = Math.min(owed, 0xFFFF);
        owed -= credits;
        taken += credits;
        if (owed == 0) {
            updateDue = false;
        }
        return credits;
    }

    /**
     * Credits decided on that go to the peer without another read: buffers on their way to
     * being posted again, and owed credits a CREDIT is to take now. Owed credits short of half
     * the window are not among them: they wait for reading, or for a Send of ours.
     */
    int onTheirWay() {
        long inHand = decided - taken - owed;
        return (int) (updateDue ? inHand + owed : inHand);
    }

    /** Credits taken into our Sends since the stream started. */
    long sent() {
        return taken;
    }
}
