package io.extsock.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The set of readiness watchers of one connection: who is called, how often, and after a failure. */
class ReadinessWatchersTest {

    private final ReadinessWatchers watchers = new ReadinessWatchers();
    private final List<String> calls = new ArrayList<>();

    @Test
    void eachWatcherIsCalledOncePerChangeInTheOrderAdded() {
        Runnable first = () -> calls.add("first");
        Runnable second = () -> calls.add("second");
        assertTrue(watchers.isEmpty());
        watchers.add(first);
        watchers.add(second);
        assertFalse(watchers.isEmpty());

        watchers.changed();
        watchers.changed();

        assertEquals(List.of("first", "second", "first", "second"), calls);
    }

    @Test
    void aRemovedWatcherIsNoLongerCalledAndRemovingItAgainSaysSo() {
        Runnable first = () -> calls.add("first");
        Runnable second = () -> calls.add("second");
        watchers.add(first);
        watchers.add(second);

        assertTrue(watchers.remove(first));
        assertFalse(watchers.remove(first), "removed already");
        watchers.changed();
        assertEquals(List.of("second"), calls);

        assertTrue(watchers.remove(second));
        assertTrue(watchers.isEmpty());
        watchers.changed();
        assertEquals(List.of("second"), calls, "nobody left to call");
    }

    @Test
    void aWatcherThatThrowsDoesNotKeepTheOthersFromTheirCall() {
        watchers.add(() -> {
            throw new IllegalStateException("a broken selector");
        });
        watchers.add(() -> calls.add("after"));

        watchers.changed();  // must not throw: the caller is the engine's thread

        assertEquals(List.of("after"), calls);
    }
}
