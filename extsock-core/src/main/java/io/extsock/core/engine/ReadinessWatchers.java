package io.extsock.core.engine;

import java.util.Arrays;

/**
 * Whoever waits on one connection's readiness as events rather than with a thread: a selector,
 * which asks for a call whenever something it may wait for changed (input processed, room or
 * credits returned, a completion, the end) and then looks at what it waits for itself. The
 * calls come on the thread that made the change, so each must be quick and must not block (a
 * selector's {@code wakeup}).
 *
 * <p>The set is copied on change, as registrations are rare and calls are on every message: a
 * call reads one volatile array and nothing else when nobody watches.
 */
final class ReadinessWatchers {

    private static final Runnable[] NONE = new Runnable[0];

    private volatile Runnable[] watchers = NONE;

    /** Adds a watcher; the same one twice is called twice. */
    synchronized void add(Runnable changed) {
        Runnable[] grown = Arrays.copyOf(watchers, watchers.length + 1);
        grown[watchers.length] = changed;
        watchers = grown;
    }

    /**
     * Removes one registration of a watcher.
     *
     * @return whether it was there (false when removed before)
     */
    synchronized boolean remove(Runnable changed) {
        Runnable[] current = watchers;
        for (int i = 0; i < current.length; i++) {
            if (current[i] == changed) {
                Runnable[] shrunk = new Runnable[current.length - 1];
                System.arraycopy(current, 0, shrunk, 0, i);
                System.arraycopy(current, i + 1, shrunk, i, current.length - i - 1);
                watchers = current.length == 1 ? NONE : shrunk;
                return true;
            }
        }
        return false;
    }

    boolean isEmpty() {
        return watchers.length == 0;
    }

    /**
     * Something a watcher may wait for changed: each looks again. A watcher that throws is
     * logged and the others are still called: the thread here is the engine's, or one that
     * received for others, and must go on.
     */
    void changed() {
        for (Runnable watcher : watchers) {
            try {
                watcher.run();
            } catch (RuntimeException e) {
                System.getLogger(ReadinessWatchers.class.getName()).log(System.Logger.Level.WARNING,
                        "a readiness watcher failed; the connection goes on", e);
            }
        }
    }
}
