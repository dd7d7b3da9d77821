package io.extsock.core.verbs;

import java.nio.ByteBuffer;
import java.util.ArrayList;

/**
 * The region views a gathering write references, lent by their regions while the write is
 * assembled and given back once it went out. Transmit side only; its lists are reused, so the
 * steady state allocates nothing.
 */
final class LentViews {

    private final ArrayList<RegisteredRegion> regions = new ArrayList<>();
    private final ArrayList<ByteBuffer> views = new ArrayList<>();

    ByteBuffer lend(RegisteredRegion region, long offset, int length) {
        ByteBuffer view = region.lendTransmitView(offset, length);
        regions.add(region);
        views.add(view);
        return view;
    }

    /** The write is done: every view goes back to its region. */
    void returnAll() {
        for (int i = 0; i < views.size(); i++) {
            regions.get(i).returnTransmitView(views.get(i));
        }
        regions.clear();
        views.clear();
    }
}
