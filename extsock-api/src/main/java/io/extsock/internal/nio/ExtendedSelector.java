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
 * a selection counts the keys whose ready sets it changed.
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
    /** The JDK selector's keys as a selection finds them, made once: no allocation per selection. */
    private final Consumer<SelectionKey> found = this::found;
    /** Keys whose ready sets the selection in progress changed; the selecting thread only. */
    private int updated;

    /**
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
        ensureOpen();
        ExtendedSelectionKey key = new ExtendedSelectionKey(channel, this);
        key.attach(attachment);
        try {
            // The JDK's selector refuses a channel of another provider (IllegalSelectorException).
            SelectionKey underneath = watched.register(platform, ops, key);
            key.watchedBy(underneath);
            if (channel instanceof PlatformBacked backed) {
                backed.watchedBy(underneath);
            }
        } catch (ClosedChannelException e) {
            // The caller checked our channel open; the one under it closes with it, so it closed meanwhile.
            key.cancel();
            return key;
        }
        key.interestOpsRegistered(ops);
        keys.add(key);
        return key;
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
                begin();  // an interrupt wakes the selection, as the JDK's
                try {
                    updated = 0;
                    if (timeout < 0) {
                        platform.selectNow(found);
                    } else {
                        platform.select(found, timeout);
                    }
                } finally {
                    end();
                }
                deregisterCancelled();
                return updated;
            }
        }
    }

    /** A key of the JDK's selector is ready: its key here joins the selected set, or adds to its ready set. */
    private void found(SelectionKey platformKey) {
        ExtendedSelectionKey key = (ExtendedSelectionKey) platformKey.attachment();
        if (!key.isValid()) {
            return;
        }
        int ready = platformKey.readyOps();
        if (selected.add(key)) {
            key.readyOps(ready);
            updated++;
        } else {
            int before = key.readyOpsNow();
            if ((before | ready) != before) {
                key.readyOps(before | ready);
                updated++;
            }
        }
    }

    /** Keys cancelled here are cancelled underneath, so that the JDK's next selection deregisters them there first. */
    private void cancelUnderneath() {
        Set<SelectionKey> cancelled = cancelledKeys();
        synchronized (cancelled) {
            for (SelectionKey key : cancelled) {
                SelectionKey underneath = ((ExtendedSelectionKey) key).platformKey();
                if (underneath != null) {
                    underneath.cancel();
                }
            }
        }
    }

    /** After a selection: cancelled keys leave, and their channels are registered here no more. */
    private void deregisterCancelled() {
        Set<SelectionKey> cancelled = cancelledKeys();
        synchronized (cancelled) {
            for (SelectionKey key : cancelled) {
                SelectionKey underneath = ((ExtendedSelectionKey) key).platformKey();
                if (underneath != null) {
                    underneath.cancel();  // cancelled after this selection began: the next one deregisters it there
                }
                keys.remove(key);
                selected.remove(key);
                deregister((ExtendedSelectionKey) key);
            }
            cancelled.clear();
        }
    }

    @Override
    public Selector wakeup() {
        platform.wakeup();
        return this;
    }

    @Override
    protected void implCloseSelector() throws IOException {
        platform.wakeup();
        synchronized (this) {
            synchronized (publicSelected) {
                for (SelectionKey key : keys) {
                    deregister((ExtendedSelectionKey) key);
                }
                keys.clear();
                selected.clear();
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
