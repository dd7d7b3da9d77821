package io.extsock.core.engine;

import static io.extsock.core.engine.ReadingOwnership.HANDBACK_NANOS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.engine.ReadingOwnership.AfterWaitBegan;
import io.extsock.core.engine.ReadingOwnership.Reader;
import io.extsock.core.engine.ReadingOwnership.Tick;
import org.junit.jupiter.api.Test;

/**
 * Every transition of who reads a connection's socket, driven step by step with a clock of the
 * test's own: no socket, no thread, no sleep. The progress thread's side ({@link
 * ReadingOwnership#afterWaitBegan}, {@link ReadingOwnership#watch}, {@link ReadingOwnership#tick})
 * is called where that thread would call it.
 */
class ReadingOwnershipTest {

    private static final long HALF_A_QUIET = HANDBACK_NANOS / 2;

    private final ReadingOwnership reading = new ReadingOwnership();
    private long now = 1_000_000_000L;

    @Test
    void theEngineReadsANewConnection() {
        assertEquals(Reader.ENGINE, reading.reader());
        assertTrue(reading.engineReads());
        assertEquals(Tick.DONE, reading.tick(now, false), "nothing to hand back");
    }

    @Test
    void aStreamOnlyConnectionStaysWithItsReaderAfterTheWait() {
        assertTrue(reading.platformWaitBegins(), "the engine read: the progress thread must learn of the wait");
        assertEquals(Reader.APPLICATION, reading.reader());
        assertEquals(AfterWaitBegan.INTEREST_OFF, reading.afterWaitBegan());

        assertFalse(reading.platformWaitEnds(true));
        assertEquals(Reader.APPLICATION, reading.reader(), "nothing hands a stream-only connection back");
        assertFalse(reading.engineReads());
    }

    @Test
    void aWaitOverBeforeTheProgressThreadLearnedOfItStillTurnsTheInterestOff() {
        reading.platformWaitBegins();
        reading.platformWaitEnds(false);

        assertEquals(AfterWaitBegan.INTEREST_OFF, reading.afterWaitBegan(),
                "a stream-only connection is its readers' even when their wait is over");
    }

    @Test
    void aSecondWaitDoesNotAskTheProgressThreadAgain() {
        reading.platformWaitBegins();
        reading.platformWaitEnds(false);

        assertFalse(reading.platformWaitBegins(), "the application reads already");
    }

    @Test
    void aConnectionThatProgressesWhileIdleIsTakenBackAfterAQuietWithNoWait() {
        assertFalse(reading.progressWhileIdle(), "the engine reads: nothing to watch");
        assertTrue(reading.platformWaitBegins());
        assertEquals(Reader.HANDING_BACK, reading.reader());
        assertEquals(AfterWaitBegan.INTEREST_OFF_AND_WATCH, reading.afterWaitBegan());
        assertTrue(reading.watch(now));

        now += HALF_A_QUIET;
        assertEquals(Tick.WHENEVER, reading.tick(now, false), "the same wait lasts: its end will say so");
        assertFalse(reading.platformWaitEnds(false));

        now += HALF_A_QUIET;
        assertEquals(Tick.SOON, reading.tick(now, false), "the quiet counts from the last tick that saw a waiter");
        now += HALF_A_QUIET - 1;
        assertEquals(Tick.SOON, reading.tick(now, false));
        assertFalse(reading.engineReads());

        now += 1;
        assertEquals(Tick.TAKEN_BACK, reading.tick(now, false));
        assertEquals(Reader.ENGINE, reading.reader());
        assertEquals(Tick.DONE, reading.tick(now, false));
    }

    @Test
    void aWaitBegunDuringTheQuietStartsItAgain() {
        reading.progressWhileIdle();
        reading.platformWaitBegins();
        reading.platformWaitEnds(false);
        reading.watch(now);

        now += HANDBACK_NANOS - 1;
        reading.platformWaitBegins();
        reading.platformWaitEnds(false);
        assertEquals(Tick.SOON, reading.tick(now, false), "a wait came and went since the last tick");

        now += HANDBACK_NANOS - 1;
        assertEquals(Tick.SOON, reading.tick(now, false));
        now += 1;
        assertEquals(Tick.TAKEN_BACK, reading.tick(now, false));
    }

    @Test
    void aWaitThatEndsWhileTheTickIsSlowCountsAsAWaitAndWakesTheProgressThread() {
        reading.progressWhileIdle();
        reading.platformWaitBegins();
        reading.watch(now);
        assertEquals(Tick.WHENEVER, reading.tick(now, false));

        assertTrue(reading.platformWaitEnds(true), "the progress thread ticks slowly: wake it");

        now += HANDBACK_NANOS;
        assertEquals(Tick.SOON, reading.tick(now, false), "the quiet waits its full time from the wait's end");
        now += HANDBACK_NANOS;
        assertEquals(Tick.TAKEN_BACK, reading.tick(now, false));
    }

    @Test
    void aWaiterThatLeftBeforeTheProgressThreadLearnedKeepsTheInterestForTheHandBack() {
        reading.progressWhileIdle();
        reading.platformWaitBegins();
        reading.platformWaitEnds(false);

        assertEquals(AfterWaitBegan.WATCH, reading.afterWaitBegan(),
                "the hand-back settles the interest: turning it off now would leave nobody reading");
    }

    @Test
    void theVerbsInUseAfterTheApplicationTookReadingStartTheHandBack() {
        reading.platformWaitBegins();
        reading.platformWaitEnds(false);
        assertEquals(Reader.APPLICATION, reading.reader());

        assertTrue(reading.progressWhileIdle(), "the progress thread must watch for the hand-back");
        assertEquals(Reader.HANDING_BACK, reading.reader());
        assertFalse(reading.progressWhileIdle(), "said once");

        assertTrue(reading.watch(now));
        now += HANDBACK_NANOS;
        assertEquals(Tick.TAKEN_BACK, reading.tick(now, false));
    }

    @Test
    void aParkedWaitHasTheEngineReadAndLeavesTheConnectionToItsReadersWhenItEnds() {
        reading.platformWaitBegins();
        reading.platformWaitEnds(false);

        assertTrue(reading.parkedWaitBegins(), "a virtual thread parks: the engine must read for it");
        assertEquals(Reader.HANDING_BACK, reading.reader());
        assertTrue(reading.parkedWaiting());
        assertTrue(reading.watch(now));

        reading.parkedWaitEnds();
        assertEquals(Tick.LEFT_TO_READERS, reading.tick(now, false), "stream-only again: interest off");
        assertEquals(Reader.APPLICATION, reading.reader());
    }

    @Test
    void aParkedWaitIsTakenBackAfterTheQuiet() {
        reading.platformWaitBegins();
        reading.platformWaitEnds(false);
        reading.parkedWaitBegins();
        reading.watch(now);

        now += HANDBACK_NANOS;
        assertEquals(Tick.TAKEN_BACK, reading.tick(now, false));
        assertFalse(reading.parkedWaitBegins(), "the engine reads already");
    }

    @Test
    void aConnectionIsWatchedOnceUntilItsTicksEnd() {
        reading.progressWhileIdle();
        reading.platformWaitBegins();

        assertTrue(reading.watch(now));
        assertFalse(reading.watch(now), "in the ticked list already");
        reading.platformWaitEnds(false);
        now += HANDBACK_NANOS;  // the quiet counts from the watch at the earliest
        assertEquals(Tick.TAKEN_BACK, reading.tick(now, false));
        assertTrue(reading.watch(now), "ticks ended: a later watch adds it again");
    }

    @Test
    void anEndedConnectionNeedsNoMoreTicks() {
        reading.progressWhileIdle();
        reading.platformWaitBegins();
        reading.watch(now);

        assertEquals(Tick.DONE, reading.tick(now, true));
        assertFalse(reading.engineReads(), "an ended connection is read by nobody");
    }

    @Test
    void theEngineTakingBackAsAWaitBeginsLeavesTheWaiterToTakeItAgain() {
        reading.progressWhileIdle();
        reading.platformWaitBegins();
        reading.platformWaitEnds(false);
        reading.watch(now);
        now += HANDBACK_NANOS;
        assertEquals(Tick.TAKEN_BACK, reading.tick(now, false));

        // The progress thread finds the socket readable while a waiter holds the receive lock.
        assertTrue(reading.platformWaitBegins());
        assertEquals(Reader.HANDING_BACK, reading.reader());
        assertTrue(reading.platformWaiting());
        assertFalse(reading.othersWaiting());
        assertEquals(AfterWaitBegan.INTEREST_OFF_AND_WATCH, reading.afterWaitBegan());
    }

    @Test
    void othersWaitingCountsEveryWaiterButOne() {
        reading.platformWaitBegins();
        assertFalse(reading.othersWaiting());
        reading.platformWaitBegins();
        assertTrue(reading.othersWaiting());
        reading.platformWaitEnds(false);
        reading.parkedWaitBegins();
        assertTrue(reading.othersWaiting(), "a parked waiter waits for a signal too");
    }

    @Test
    void aReadinessWatchHasTheEngineReadAfterTheQuietAndKeepsItWhileItLasts() {
        reading.platformWaitBegins();
        reading.platformWaitEnds(false);
        assertEquals(Reader.APPLICATION, reading.reader(), "a stream-only connection, its reader gone");

        assertTrue(reading.watchBegins(), "a selector waits for events: the engine must read for it");
        assertEquals(Reader.HANDING_BACK, reading.reader());
        assertTrue(reading.handsBackWhenIdle());
        assertTrue(reading.watch(now));
        now += HALF_A_QUIET;
        assertEquals(Tick.SOON, reading.tick(now, false), "the quiet is not over");
        now += HALF_A_QUIET;
        assertEquals(Tick.TAKEN_BACK, reading.tick(now, false));
        assertTrue(reading.engineReads());

        // A thread that reads inline meanwhile hands it back again after its wait, as long as the watch lasts.
        assertTrue(reading.platformWaitBegins());
        assertEquals(Reader.HANDING_BACK, reading.reader());
        assertEquals(AfterWaitBegan.INTEREST_OFF_AND_WATCH, reading.afterWaitBegan());
    }

    @Test
    void aClosedReadinessWatchLeavesAStreamOnlyConnectionToItsReaders() {
        reading.platformWaitBegins();
        reading.platformWaitEnds(false);
        reading.watchBegins();
        reading.watch(now);

        reading.watchEnds();
        assertFalse(reading.handsBackWhenIdle());
        assertEquals(Tick.LEFT_TO_READERS, reading.tick(now, false), "stream-only again: interest off");
        assertEquals(Reader.APPLICATION, reading.reader());
    }

    @Test
    void aReadinessWatchOnAConnectionTheEngineReadsChangesNothing() {
        assertFalse(reading.watchBegins(), "the engine reads already: no hand-back to watch for");
        assertEquals(Reader.ENGINE, reading.reader());
    }

    @Test
    void aReaderSignalsAReadinessWatch() {
        reading.watchBegins();
        reading.platformWaitBegins();
        assertTrue(reading.othersWaiting(), "what one thread receives may be what the watch waits for");
        reading.watchEnds();
        assertFalse(reading.othersWaiting());
    }
}
