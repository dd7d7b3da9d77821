package io.extsock.internal.nio;

import java.nio.channels.SelectionKey;
import java.util.ArrayList;
import java.util.List;

/**
 * The keys of extsock selectors' JDK selectors on one channel underneath. A key cancelled in an
 * extsock selector is cancelled underneath only at that selector's next selection; a channel
 * that goes back to blocking mode before then cancels them itself, as the JDK lets a channel
 * whose keys are all cancelled block at once.
 */
final class PlatformKeys {

    private final List<SelectionKey> keys = new ArrayList<>(1);

    synchronized void add(SelectionKey key) {
        keys.removeIf(k -> !k.isValid());
        keys.add(key);
    }

    /** The channel has no valid key of its own: every key underneath belongs to a cancelled one. */
    synchronized void cancelAll() {
        for (SelectionKey key : keys) {
            key.cancel();
        }
        keys.clear();
    }
}
