package io.extsock.core.verbs;

import java.nio.ByteBuffer;
import java.util.ArrayList;

/**
 * The region views a gathering write references, lent by their regions while the write is
 * assembled and given back once it went out. A file region has no memory to view: its bytes are
 * read into staging memory of the connection's ({@link StagingArena}), lent the same way.
 * Transmit side only; its lists are reused, so the steady state allocates nothing.
 */
final class LentViews {

    private final ArrayList<RegisteredRegion> regions = new ArrayList<>();
    private final ArrayList<ByteBuffer> views = new ArrayList<>();
    /**
     * Regions held by messages whose last octets are in this write: Read Responses, and Sends or
     * Writes from a file region.
     */
    private final ArrayList<RegisteredRegion> held = new ArrayList<>();
    private StagingArena staging;

    /**
     * @throws SourceUnreadableException if the region is a file's and its bytes could not be read
     */
    ByteBuffer lend(RegisteredRegion region, long offset, int length) {
        ByteBuffer view;
        if (region.isFile()) {
            if (staging == null) {
                staging = new StagingArena();
            }
            view = staging.take(length);
            region.readFileInto(view, offset);  // on failure the carved octets wait for the next reset
        } else {
            view = region.lendTransmitView(offset, length);
        }
        regions.add(region);
        views.add(view);
        return view;
    }

    /** Releases the region's transmit hold once this write is done. */
    void releaseHoldAfterWrite(RegisteredRegion region) {
        held.add(region);
    }

    /** The write is done: every view goes back to its region, every hold is released. */
    void returnAll() {
        for (int i = 0; i < views.size(); i++) {
            RegisteredRegion region = regions.get(i);
            if (!region.isFile()) {
                region.returnTransmitView(views.get(i));
            }
        }
        regions.clear();
        views.clear();
        if (staging != null) {
            staging.reset();
        }
        for (int i = 0; i < held.size(); i++) {
            held.get(i).releaseTransmitHold();
        }
        held.clear();
    }
}
