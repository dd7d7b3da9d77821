package io.extsock.core.engine;

import io.extsock.internal.nio.PlatformProvider;
import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The Selectors application threads wait in (one per connection they wait on), kept a while
 * once their connection ended, for the next connection to take. Opening one and closing it
 * costs an epoll and an eventfd descriptor, made and destroyed, six system calls and about a
 * tenth of a short connection's setup (a {@code perf} profile of connect, one round trip and
 * close). At most {@link #MOST_SPARES} are kept, and none longer than {@link #IDLE_MILLIS}
 * unused: a JVM whose connections ended holds no descriptors for them for long.
 */
final class SpareSelectors {

    /** Spares kept at most: more connections ending at once close theirs. */
    static final int MOST_SPARES = 64;
    /** How long a spare may lie unused before it is closed. */
    static final long IDLE_MILLIS = 1_000;

    /**
     * The action for a select in one of these: each watches one channel, so that it is ready is
     * all a select says (and the selected-key set's HashSet allocates per select).
     */
    static final Consumer<SelectionKey> IGNORE_KEY = key -> { };

    private record Spare(Selector selector, long sinceNanos) {
    }

    private static final ConcurrentLinkedDeque<Spare> SPARES = new ConcurrentLinkedDeque<>();
    private static final AtomicInteger COUNT = new AtomicInteger();
    private static final AtomicBoolean TRIM_SCHEDULED = new AtomicBoolean();

    private SpareSelectors() {
    }

    /**
     * A Selector with the channel registered for reading: a spare if there is one, else a new one.
     *
     * @throws IOException if none can be opened, or the channel cannot be registered (the
     *     Selector is then closed)
     */
    static Selector watching(SocketChannel channel) throws IOException {
        Spare spare = SPARES.pollFirst();
        Selector selector;
        if (spare != null) {
            COUNT.decrementAndGet();
            selector = spare.selector();
        } else {
            selector = PlatformProvider.get().openSelector();
        }
        try {
            channel.register(selector, SelectionKey.OP_READ);
        } catch (IOException | RuntimeException e) {
            close(selector, e);
            throw e;
        }
        return selector;
    }

    /**
     * Takes back a Selector its connection no longer waits in (no thread selects in it now):
     * the connection's key goes, and so does a wake-up meant for its last waiter. Closed
     * instead when the spares are many, or it cannot be cleaned.
     */
    static void giveBack(Selector selector) {
        try {
            for (SelectionKey key : selector.keys()) {
                key.cancel();
            }
            selector.selectNow();  // deregisters the cancelled key, and clears a pending wake-up
        } catch (IOException | RuntimeException e) {
            close(selector, e);
            return;
        }
        if (!selector.keys().isEmpty() || !roomForOneMore()) {
            close(selector, null);
            return;
        }
        SPARES.addFirst(new Spare(selector, System.nanoTime()));
        scheduleTrim();
    }

    private static boolean roomForOneMore() {
        if (COUNT.incrementAndGet() <= MOST_SPARES) {
            return true;
        }
        COUNT.decrementAndGet();
        return false;
    }

    /** Spares kept now (for tests). */
    static int count() {
        return COUNT.get();
    }

    private static void scheduleTrim() {
        if (TRIM_SCHEDULED.compareAndSet(false, true)) {
            ProgressEngine.instance().assign().schedule(IDLE_MILLIS, SpareSelectors::trim);
        }
    }

    /** Closes the spares unused for {@link #IDLE_MILLIS} (the oldest are last), and looks again later while any are kept. */
    private static void trim() {
        TRIM_SCHEDULED.set(false);
        long now = System.nanoTime();
        Spare oldest;
        while ((oldest = SPARES.peekLast()) != null && now - oldest.sinceNanos() >= IDLE_MILLIS * 1_000_000L) {
            if (SPARES.removeLastOccurrence(oldest)) {
                COUNT.decrementAndGet();
                close(oldest.selector(), null);
            }
        }
        if (!SPARES.isEmpty()) {
            scheduleTrim();
        }
    }

    private static void close(Selector selector, Exception failure) {
        try {
            selector.close();
        } catch (IOException e) {
            if (failure != null) {
                failure.addSuppressed(e);
            }
        }
    }
}
