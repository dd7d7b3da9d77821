package io.extsock.bench;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.spi.SelectorProvider;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A selector of one provider watching many idle connections and one active one, all of the
 * provider's channels, as a server's event loop does: what a selection costs there, one that
 * finds the active connection ready and one that finds nothing.
 */
final class CrowdedSelector implements Closeable {

    /** Selections timed together. */
    static final int BATCH = 100;

    private final Selector selector;
    private final List<ProviderLink> idle;
    private final ProviderLink active;
    private final SelectionKey activeKey;
    private final ByteBuffer sent = ByteBuffer.allocateDirect(1);
    private final ByteBuffer received = ByteBuffer.allocateDirect(1);
    /** The last byte written to the active connection: each round's differs from the last's. */
    private int written;

    private CrowdedSelector(Selector selector, List<ProviderLink> idle, ProviderLink active, SelectionKey activeKey) {
        this.selector = selector;
        this.idle = idle;
        this.active = active;
        this.activeKey = activeKey;
    }

    /**
     * Opens {@code idleConnections} connections and one more, all registered for reading by
     * their client ends (non-blocking) with one selector; the active one's server end stays
     * blocking, to write to it.
     */
    static CrowdedSelector open(SelectorProvider provider, int idleConnections) throws IOException {
        if (idleConnections < 0) {
            throw new IllegalArgumentException("idle connections: " + idleConnections + ", fewer than none");
        }
        Selector selector = provider.openSelector();
        List<ProviderLink> idle = new ArrayList<>(idleConnections);
        ProviderLink active = null;
        try (ServerSocketChannel listener = ProviderLink.listen(provider)) {
            for (int i = 0; i < idleConnections; i++) {
                ProviderLink link = ProviderLink.connect(listener);
                idle.add(link);
                watch(link, selector);
            }
            active = ProviderLink.connect(listener);
            return new CrowdedSelector(selector, idle, active, watch(active, selector));
        } catch (IOException | RuntimeException e) {
            Closing.quietly(active, e);
            Closing.quietly(() -> Closing.all(idle), e);
            Closing.quietly(selector, e);
            throw e;
        }
    }

    private static SelectionKey watch(ProviderLink link, Selector selector) throws IOException {
        link.client.configureBlocking(false);
        return link.client.register(selector, SelectionKey.OP_READ);
    }

    /**
     * Selections that find the active connection readable, microseconds each, as the median of
     * batches of {@value #BATCH} timed together ({@code System.nanoTime} ticks in tens of
     * nanoseconds here, too coarse for one selection): its other end writes a byte, which stays
     * unread, so that each {@code select()} finds it again once its key is taken from the
     * selected set; each must count and select that key alone. The byte is read and checked
     * after the last.
     *
     * @param iterations selections, rounded down to whole batches (at least one)
     */
    double selectFindingOne(int iterations) throws IOException {
        byte value = (byte) ++written;
        sent.clear();
        sent.put(0, value);
        while (sent.hasRemaining()) {
            active.server.write(sent);
        }
        selectActive(0);  // not timed: waits for the byte to arrive
        double[] micros = new double[Math.max(1, iterations / BATCH)];
        for (int batch = 0; batch < micros.length; batch++) {
            long start = System.nanoTime();
            for (int i = 0; i < BATCH; i++) {
                selectActive(batch * BATCH + i);
            }
            micros[batch] = (System.nanoTime() - start) / 1_000.0 / BATCH;
        }
        received.clear();
        if (active.client.read(received) != 1 || received.get(0) != value) {
            throw new IOException("the active connection's byte did not come as sent");
        }
        return Stats.median(micros);
    }

    /** One {@code select()} that must count the active connection's key alone, taken from the selected set. */
    private void selectActive(int selection) throws IOException {
        int updated = selector.select();
        int found = 0;
        for (Iterator<SelectionKey> keys = selector.selectedKeys().iterator(); keys.hasNext(); ) {
            SelectionKey key = keys.next();
            keys.remove();
            if (key != activeKey || !key.isReadable()) {
                throw new IllegalStateException("selection " + selection + " found a key other than the active"
                        + " connection's readable one: " + key);
            }
            found++;
        }
        if (updated != 1 || found != 1) {
            throw new IllegalStateException("selection " + selection + " counted " + updated + " keys and selected "
                    + found + ", not the active connection's alone");
        }
    }

    /**
     * {@code selectNow()} with nothing ready, microseconds each, as the median of batches of
     * {@value #BATCH}: each must count nothing, and the selected set must be empty after.
     *
     * @param iterations selections, rounded down to whole batches (at least one)
     */
    double selectNowFindingNone(int iterations) throws IOException {
        double[] micros = new double[Math.max(1, iterations / BATCH)];
        for (int batch = 0; batch < micros.length; batch++) {
            int updated = 0;
            long start = System.nanoTime();
            for (int i = 0; i < BATCH; i++) {
                updated += selector.selectNow();
            }
            micros[batch] = (System.nanoTime() - start) / 1_000.0 / BATCH;
            if (updated != 0 || !selector.selectedKeys().isEmpty()) {
                throw new IllegalStateException("selectNow found " + updated + " ready with nothing sent");
            }
        }
        return Stats.median(micros);
    }

    /** The selector's rounds of {@link #selectFindingOne}, all on the client thread. */
    Contender findingOne(int iterations) {
        return clientOnly(() -> selectFindingOne(iterations));
    }

    /** The selector's rounds of {@link #selectNowFindingNone}, all on the client thread. */
    Contender findingNone(int iterations) {
        return clientOnly(() -> selectNowFindingNone(iterations));
    }

    private interface Measure {
        double run() throws IOException;
    }

    private static Contender clientOnly(Measure measure) {
        return new Contender() {
            public void serve(int round) {
                // a selection has no other end: the client thread writes the active connection's byte
            }

            public double run(int round) throws IOException {
                return measure.run();
            }
        };
    }

    @Override
    public void close() throws IOException {
        try {
            selector.close();
        } finally {
            try {
                active.close();
            } finally {
                Closing.all(idle);
            }
        }
    }
}
