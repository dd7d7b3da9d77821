package io.extsock.core.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** When a stream's receive window grows, decided without buffers, a peer or a socket. */
class WindowGrowthTest {

    private static final int MAX_BUFFERS = 64;
    private static final int OCTETS_PER_BUFFER = 64 * 1024;

    private final WindowGrowth growth = new WindowGrowth(MAX_BUFFERS, OCTETS_PER_BUFFER);

    @Test
    void aWriterThatWaitedAndFilledTheWindowDoublesIt() {
        sends(8, OCTETS_PER_BUFFER);

        assertEquals(16, growth.growTo(true, 8, 8));
    }

    @Test
    void aWriterThatDidNotWaitGrowsNothing() {
        sends(8, OCTETS_PER_BUFFER);

        assertEquals(8, growth.growTo(false, 8, 8));
    }

    @Test
    void tinyMessagesFlaggedAsWaitingGrowNothing() {
        sends(8, 1);

        assertEquals(8, growth.growTo(true, 8, 8), "the peer's word alone does not buy memory");
    }

    @Test
    void anEighthOfTheWindowIsEnough() {
        int eighthOfTheWindowPerSend = OCTETS_PER_BUFFER / 8;
        sends(8, eighthOfTheWindowPerSend - 1);
        assertEquals(8, growth.growTo(true, 8, 8), "just under an eighth");

        sends(8, eighthOfTheWindowPerSend);
        assertEquals(16, growth.growTo(true, 8, 8), "an eighth");
    }

    @Test
    void onlyTheLastWindowsWorthOfSendsCounts() {
        sends(8, OCTETS_PER_BUFFER);
        sends(8, 1);

        assertEquals(8, growth.growTo(true, 8, 8), "the large Sends were before the last window's worth");
    }

    @Test
    void aGrowthUnderWayIsNotAskedForAgain() {
        sends(8, OCTETS_PER_BUFFER);

        assertEquals(16, growth.growTo(true, 16, 8), "allocated but not posted yet: no growth, no change");
    }

    @Test
    void theWindowStopsAtItsLargest() {
        sends(MAX_BUFFERS, OCTETS_PER_BUFFER);

        assertEquals(MAX_BUFFERS, growth.growTo(true, 48, 48));
        assertEquals(MAX_BUFFERS, growth.growTo(true, MAX_BUFFERS, MAX_BUFFERS));
    }

    @Test
    void afterARefusalTheWindowAsksAgainOnlyAfterItsQuiet() {
        sends(8, OCTETS_PER_BUFFER);
        growth.refused();

        sends(WindowGrowth.SENDS_BETWEEN_REFUSED_GROWTHS - 1, OCTETS_PER_BUFFER);
        assertEquals(8, growth.growTo(true, 8, 8));

        sends(1, OCTETS_PER_BUFFER);
        assertEquals(16, growth.growTo(true, 8, 8));
    }

    @Test
    void theWindowInOctetsIsWhatItsBuffersHold() {
        assertEquals(4 * OCTETS_PER_BUFFER, growth.windowOctets(4));
    }

    private void sends(int count, int octets) {
        for (int i = 0; i < count; i++) {
            growth.recordPayload(octets);
        }
    }
}
