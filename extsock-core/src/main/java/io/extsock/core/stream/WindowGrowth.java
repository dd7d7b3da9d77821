package io.extsock.core.stream;

/**
 * When a stream's receive window grows: the policy alone, without buffers or I/O, used under
 * its {@link StreamInput}'s monitor.
 *
 * <p>A connection starts with a few buffers (cheap, for the thousands of connections that carry
 * little). When a Send arrives whose writer had to wait for credits first ({@link
 * StreamHeader#WAITED}: our window, not its application, held it up), the buffers double, up to
 * a maximum. On two cores a writer that waits for credits waits for a thread wake-up, tens of
 * microseconds, so a bulk stream needs about 1 MiB in flight to keep TCP busy (measured: 128 KiB
 * gives 0.4x plain TCP, 1 MiB 2x).
 *
 * <p>The flag is the peer's word, and memory is ours: the window grows only when the peer also
 * showed that it fills it. Its last window's worth of DATA Sends (as many as buffers are posted:
 * the Sends a writer must have made to run out of credits) must have carried at least an eighth
 * of the window's octets, 8 KiB a Send on average. A bulk writer grows the window at its first
 * wait, and so does one behind a {@code BufferedOutputStream} (8 KiB writes); a peer that flags
 * tiny messages never does, and one that sends real data gets at most 8 octets of window for
 * each it sent. After a growth the memory budget refused, the window asks again only {@link
 * #SENDS_BETWEEN_REFUSED_GROWTHS} Sends later.
 */
final class WindowGrowth {

    /**
     * DATA Sends after a growth the budget refused before the window asks again: a bulk writer
     * waits for credits every few Sends, and asking (with its log line and event) each time
     * would flood both while the budget stays spent. 1024 Sends: milliseconds of a bulk stream.
     */
    static final int SENDS_BETWEEN_REFUSED_GROWTHS = 1024;

    /** Payload octets of the last DATA Sends, a ring as long as the largest window. */
    private final int[] recentPayloads;
    private int recentNext;
    /** DATA Sends to go before growth may be asked for again, after a refusal. */
    private int sendsBeforeAskingAgain;
    /** Stream octets one receive buffer holds. */
    private final int octetsPerBuffer;

    /**
     * @param maxBuffers how far the window may grow, in buffers
     * @param octetsPerBuffer stream octets one buffer holds
     */
    WindowGrowth(int maxBuffers, int octetsPerBuffer) {
        this.recentPayloads = new int[maxBuffers];
        this.octetsPerBuffer = octetsPerBuffer;
    }

    /** Stream octets that many receive buffers hold: the window as the peer's writer can fill it. */
    int windowOctets(int buffers) {
        return buffers * octetsPerBuffer;
    }

    /** A DATA Send carried {@code octets} of payload. */
    void recordPayload(int octets) {
        recentPayloads[recentNext] = octets;
        recentNext = (recentNext + 1) % recentPayloads.length;
        if (sendsBeforeAskingAgain > 0) {
            sendsBeforeAskingAgain--;
        }
    }

    /**
     * A DATA Send was taken into a buffer of its own: how many buffers the window should grow to.
     *
     * @param waited whether its writer waited for credits first
     * @param allocated the buffers there are
     * @param posted the buffers posted (the window the peer was given)
     * @return the buffers to grow to, or {@code allocated} for no growth
     */
    int growTo(boolean waited, int allocated, int posted) {
        if (waited && allocated == posted && allocated < recentPayloads.length && sendsBeforeAskingAgain == 0
                && peerFilledTheWindow(posted)) {
            return Math.min(recentPayloads.length, 2 * allocated);
        }
        return allocated;
    }

    /** The memory budget refused (part of) a growth: not again for a while. */
    void refused() {
        sendsBeforeAskingAgain = SENDS_BETWEEN_REFUSED_GROWTHS;
    }

    /** Whether the peer's last {@code posted} DATA Sends carried at least an eighth of what that many buffers hold. */
    private boolean peerFilledTheWindow(int posted) {
        long octets = 0;
        for (int i = 1; i <= posted; i++) {
            octets += recentPayloads[(recentNext - i + recentPayloads.length) % recentPayloads.length];
        }
        return octets >= (long) windowOctets(posted) / 8;
    }
}
