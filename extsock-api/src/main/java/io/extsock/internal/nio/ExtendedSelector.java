package io.extsock.internal.nio;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.spi.AbstractSelectableChannel;
import java.nio.channels.spi.AbstractSelector;
import java.nio.channels.spi.SelectorProvider;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * A selector of extsock's provider: it hosts extsock's channels and the JDK's own together,
 * watching every channel's descriptor through one selector of the JDK's (an extsock channel's
 * through the JDK channel it runs on). Its keys, their sets and its selection follow {@link
 * Selector}'s contract: a key cancelled, or whose channel closed, leaves at the next selection;
 * a selection counts the keys whose ready sets it changed, and readiness is level-triggered.
 *
 * <p>A channel whose readiness comes from elsewhere too ({@link EventReadiness}: IWARP_MODE,
 * whose socket the engine reads) says what to watch on its descriptor and what else is ready;
 * its changes wake a selection in progress, and each selection looks at what such channels
 * have ready before it blocks and after, so that nothing spins and nothing is missed. Those
 * internal wake-ups that find nothing of interest do not end the selection: only readiness, the
 * timeout, {@link #wakeup} and an interrupt do, as with the JDK's.
 *
 * <p>Locks, as the JDK's selector takes them: a selection holds the selector, then its
 * selected-key set; the cancelled-key set is taken alone.
 */
public final class ExtendedSelector extends AbstractSelector {

    private final Selector platform;
    private final Set<SelectionKey> keys = ConcurrentHashMap.newKeySet();
    private final Set<SelectionKey> publicKeys = Collections.unmodifiableSet(keys);
    private final Set<SelectionKey> selected = new HashSet<>();
    private final Set<SelectionKey> publicSelected = new UngrowableSet<>(selected);
    /** Keys whose channels have had readiness besides their descriptors'; looked at on every selection. */
    private final Set<ExtendedSelectionKey> eventKeys = ConcurrentHashMap.newKeySet();
    /** The JDK selector's keys as a selection finds them, made once: no allocation per selection. */
    private final Consumer<SelectionKey> found = this::found;
    /** Whether a selection is under way: only then does a channel's change wake the JDK's selector. */
    private volatile boolean selecting;
    /** The application called {@link #wakeup}: the selection under way, or the next, ends. */
    private volatile boolean wokenUp;
    /** The selecting thread only: keys whose ready sets the selection changed, and whether any was ready. */
    private int updated;
    private boolean anyReady;

    /**
     * A selector over a selector of the JDK's.
     *
     * @param provider the provider that made it
     * @param platform the JDK's selector that watches the descriptors, which it owns from now on
     */
    public ExtendedSelector(SelectorProvider provider, Selector platform) {
        super(provider);
        this.platform = platform;
    }

    @Override
    protected SelectionKey register(AbstractSelectableChannel channel, int ops, Object attachment) {
        SelectableChannel watched = channel instanceof PlatformBacked backed ? backed.platformChannel() : channel;
        EventReadiness events = channel instanceof PlatformBacked backed ? backed.events() : null;
        ensureOpen();
        ExtendedSelectionKey key = new ExtendedSelectionKey(channel, this, events);
        key.attach(attachment);
        try {
            // The JDK's selector refuses a channel of another provider (IllegalSelectorException).
            watch(key, watched, events == null ? ops : events.descriptorInterest(ops));
        } catch (ClosedChannelException e) {
            // The caller checked our channel open; the one under it closes with it, so it closed meanwhile.
            key.cancel();
            return key;
        }
        key.interestOpsRegistered(ops);
        if (events != null) {
            key.watching(events.watch(() -> changed(key)));
            if (events.fromEvents()) {
                eventKeys.add(key);  // ready already, perhaps, with no change to come
            }
        }
        keys.add(key);
        return key;
    }

    /** A channel's readiness or descriptor interest may have changed (any thread). */
    void changed(ExtendedSelectionKey key) {
        key.markChanged();
        eventKeys.add(key);
        if (selecting) {
            platform.wakeup();
        }
    }

    @Override
    public Set<SelectionKey> keys() {
        ensureOpen();
        return publicKeys;
    }

    @Override
    public Set<SelectionKey> selectedKeys() {
        ensureOpen();
        return publicSelected;
    }

    @Override
    public int selectNow() throws IOException {
        return selection(-1);
    }

    @Override
    public int select() throws IOException {
        return selection(0);
    }

    @Override
    public int select(long timeout) throws IOException {
        if (timeout < 0) {
            throw new IllegalArgumentException("Negative timeout");  // the JDK's words
        }
        return selection(timeout);
    }

    /**
     * @param timeout milliseconds; 0 to wait until something is ready, negative not to wait
     */
    private int selection(long timeout) throws IOException {
        ensureOpen();
        synchronized (this) {
            synchronized (publicSelected) {
                cancelUnderneath();
                updated = 0;
                anyReady = false;
                selecting = true;
                boolean blocking = timeout >= 0;
                if (blocking) {
                    begin();  // an interrupt wakes the selection, as the JDK's (whose selectNow skips this too)
                }
                try {
                    selectUnderneath(timeout);
                } finally {
                    selecting = false;
                    if (blocking) {
                        end();
                    }
                }
                deregisterCancelled();
                return updated;
            }
        }
    }

    /**
     * Selects on the JDK's selector until something is ready, the time is up, the application
     * woke the selector or the thread was interrupted; a wake-up by a channel's change that
     * brought nothing of interest selects again for the time left.
     */
    private void selectUnderneath(long timeout) throws IOException {
        long deadline = timeout > 0 ? System.nanoTime() + timeout * 1_000_000 : 0;
        lookAtEvents();
        if (anyReady || timeout < 0) {
            platform.selectNow(found);
            lookAtEvents();
            wokenUp = false;
            return;
        }
        long wait = timeout;
        while (true) {
            platform.select(found, wait);
            lookAtEvents();
            if (anyReady || wokenUp || Thread.currentThread().isInterrupted()) {
                wokenUp = false;
                return;
            }
            if (deadline != 0) {
                long remainingNanos = deadline - System.nanoTime();
                if (remainingNanos <= 0) {
                    return;
                }
                wait = Math.max(1, remainingNanos / 1_000_000);
            }
        }
    }

    /** A key of the JDK's selector is ready: what that means for its key here. */
    private void found(SelectionKey platformKey) {
        ExtendedSelectionKey key = (ExtendedSelectionKey) platformKey.attachment();
        if (!key.isValid()) {
            return;
        }
        int ready = platformKey.readyOps();
        EventReadiness events = key.events();
        ready(key, events == null ? ready : events.fromDescriptor(ready));
    }

    /**
     * Looks at the channels whose readiness comes from elsewhere: a changed descriptor interest
     * goes to the JDK's key, and what they have ready joins the selected set (each selection,
     * as readiness is level-triggered).
     */
    private void lookAtEvents() {
        if (eventKeys.isEmpty()) {
            return;  // passthrough channels only: no iterator made on every selection
        }
        for (ExtendedSelectionKey key : eventKeys) {
            if (!key.isValid()) {
                continue;
            }
            int interest = key.interestOpsNow();
            if (key.takeChanged()) {
                watchUnderneath(key, interest);
            }
            if (interest != 0) {
                ready(key, key.events().readyOps(interest));
            }
        }
    }

    /**
     * A channel changed what it asks of its descriptor, or the descriptor itself (a fallback
     * reconnected it): the JDK's key follows, on the channel underneath now.
     */
    private void watchUnderneath(ExtendedSelectionKey key, int interest) {
        int descriptorInterest = key.events().descriptorInterest(interest);
        SelectionKey underneath = key.platformKey();
        if (key.channel() instanceof PlatformBacked backed && backed.platformChannel() != underneath.channel()) {
            underneath.cancel();
            try {
                watch(key, backed.platformChannel(), descriptorInterest);
            } catch (ClosedChannelException closedMeanwhile) {
                key.cancel();  // the channel closed: its key leaves at the end of this selection
            }
            return;
        }
        underneath.interestOps(descriptorInterest);
    }

    /** Registers {@code watched}, the channel under the key's, with the JDK's selector, and tells both of it. */
    private void watch(ExtendedSelectionKey key, SelectableChannel watched, int descriptorInterest)
            throws ClosedChannelException {
        SelectionKey underneath = watched.register(platform, descriptorInterest, key);
        key.watchedBy(underneath);
        if (key.channel() instanceof PlatformBacked backed) {
            backed.watchedBy(underneath);
        }
    }

    /** The key is ready for {@code ops}: it joins the selected set, or adds to its ready set. */
    private void ready(ExtendedSelectionKey key, int ops) {
        if (ops == 0) {
            return;
        }
        anyReady = true;
        if (selected.add(key)) {
            key.readyOps(ops);
            updated++;
        } else {
            int before = key.readyOpsNow();
            if ((before | ops) != before) {
                key.readyOps(before | ops);
                updated++;
            }
        }
    }

    /** Keys cancelled here are cancelled underneath, so that the JDK's next selection deregisters them there first. */
    private void cancelUnderneath() {
        Set<SelectionKey> cancelled = cancelledKeys();
        synchronized (cancelled) {
            if (cancelled.isEmpty()) {
                return;  // the usual case: no iterator made on every selection
            }
            for (SelectionKey key : cancelled) {
                ((ExtendedSelectionKey) key).cancelUnderneath();
            }
        }
    }

    /** After a selection: cancelled keys leave, and their channels are registered here no more. */
    private void deregisterCancelled() {
        Set<SelectionKey> cancelled = cancelledKeys();
        synchronized (cancelled) {
            if (cancelled.isEmpty()) {
                return;
            }
            for (SelectionKey key : cancelled) {
                ExtendedSelectionKey leaving = (ExtendedSelectionKey) key;
                leaving.cancelUnderneath();  // cancelled after this selection began: the next one deregisters it there
                keys.remove(leaving);
                selected.remove(leaving);
                eventKeys.remove(leaving);
                deregister(leaving);
            }
            cancelled.clear();
        }
    }

    @Override
    public Selector wakeup() {
        wokenUp = true;
        platform.wakeup();
        return this;
    }

    @Override
    protected void implCloseSelector() throws IOException {
        wakeup();
        synchronized (this) {
            synchronized (publicSelected) {
                for (SelectionKey key : keys) {
                    ExtendedSelectionKey leaving = (ExtendedSelectionKey) key;
                    leaving.cancelUnderneath();
                    deregister(leaving);
                }
                keys.clear();
                selected.clear();
                eventKeys.clear();
                synchronized (cancelledKeys()) {
                    cancelledKeys().clear();
                }
                platform.close();  // deregisters every channel underneath
            }
        }
    }

    private void ensureOpen() {
        if (!isOpen()) {
            throw new ClosedSelectorException();
        }
    }
}
