package io.extsock.internal.nio;

import io.extsock.spi.Readiness;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.spi.AbstractSelectionKey;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A channel's registration with an {@link ExtendedSelector}: the key the application holds,
 * with its interest and ready sets, over the key of the JDK's selector that watches the
 * channel's descriptor (whose attachment is this key).
 */
final class ExtendedSelectionKey extends AbstractSelectionKey {

    private final SelectableChannel channel;
    private final ExtendedSelector selector;
    /** Where readiness comes from besides the descriptor; null for the JDK's own channels. */
    private final EventReadiness events;
    /** The watch of {@link #events}, closed when the key leaves. */
    private volatile Readiness.Watch watch;
    /** The channel's readiness or descriptor interest changed since the selector last looked. */
    private final AtomicBoolean changed = new AtomicBoolean();
    /** The JDK selector's key on the channel's descriptor; set once, at registration. */
    private SelectionKey platformKey;
    private volatile int interestOps;
    /** Written by the selecting thread only. */
    private volatile int readyOps;

    ExtendedSelectionKey(SelectableChannel channel, ExtendedSelector selector, EventReadiness events) {
        this.channel = channel;
        this.selector = selector;
        this.events = events;
    }

    EventReadiness events() {
        return events;
    }

    void watching(Readiness.Watch watch) {
        this.watch = watch;
    }

    void markChanged() {
        changed.set(true);
    }

    /** Whether the channel changed since the last call (and from now on, not). */
    boolean takeChanged() {
        return changed.getAndSet(false);
    }

    /** The key leaves: the JDK selector's key is cancelled, and the channel's changes are no longer watched. */
    void cancelUnderneath() {
        if (platformKey != null) {
            platformKey.cancel();
        }
        Readiness.Watch open = watch;
        if (open != null) {
            open.close();
        }
    }

    void watchedBy(SelectionKey platformKey) {
        this.platformKey = platformKey;
    }

    /** The interest set the registration gave the key underneath too. */
    void interestOpsRegistered(int ops) {
        interestOps = ops;
    }

    SelectionKey platformKey() {
        return platformKey;
    }

    @Override
    public SelectableChannel channel() {
        return channel;
    }

    @Override
    public Selector selector() {
        return selector;
    }

    @Override
    public int interestOps() {
        ensureValid();
        return interestOps;
    }

    @Override
    public SelectionKey interestOps(int ops) {
        ensureValid();
        if ((ops & ~channel.validOps()) != 0) {
            throw new IllegalArgumentException("Invalid interest ops: " + ops);
        }
        synchronized (this) {
            interestOps = ops;
            try {
                platformKey.interestOps(events == null ? ops : events.descriptorInterest(ops));
            } catch (CancelledKeyException underneathGone) {
                if (!isValid()) {
                    throw new CancelledKeyException();  // the channel closed meanwhile: its close cancelled this key
                }
                // A fallback's reconnect replaced the channel underneath: the next selection watches
                // the new one, with this interest.
                selector.changed(this);
            }
        }
        return this;
    }

    /** The interest set without the validity check (for the selecting thread, which checked). */
    int interestOpsNow() {
        return interestOps;
    }

    @Override
    public int readyOps() {
        ensureValid();
        return readyOps;
    }

    /** The selecting thread: the ready set from now on. */
    void readyOps(int ops) {
        readyOps = ops;
    }

    /** The ready set without the validity check (for the selecting thread, which checked). */
    int readyOpsNow() {
        return readyOps;
    }

    private void ensureValid() {
        if (!isValid()) {
            throw new CancelledKeyException();
        }
    }

    @Override
    public String toString() {
        return "channel=" + channel + ", selector=" + selector + (isValid()
                ? ", interestOps=" + interestOps + ", readyOps=" + readyOps : ", invalid");
    }
}
