package io.extsock.core.verbs;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The map from STag to registered region of one {@link MemoryRegistry}: open addressing with
 * linear probing over an array of regions, each region carrying its own STag as the key. An
 * int key needs no boxing and the probe reads one array slot at a time, so {@link #get} is O(1)
 * and allocation-free for the placement path, unlike a {@code HashMap<Integer, ...>}.
 *
 * <p>Threads: {@link #get} is lock-free; everything else runs under the registry's lock. A
 * removed region leaves a tombstone, never a hole, so a lookup probing concurrently never
 * stops short of a region further along the probe sequence. Growth (or the sweep of
 * tombstones) copies into a new array that replaces the old one wholesale: a lookup still on
 * the old array finds what was there, which the registry checks for deregistration anyway.
 */
final class StagTable {

    private static final int INITIAL_SLOTS = 16;
    /** Marks a removed entry. Its STag is the reserved 0, which {@link #get} never looks for. */
    private static final RegisteredRegion TOMBSTONE = RegisteredRegion.tombstone();

    private volatile AtomicReferenceArray<RegisteredRegion> slots = new AtomicReferenceArray<>(INITIAL_SLOTS);
    private int live;  // guarded by the registry's lock
    private int tombstones;  // guarded by the registry's lock

    /** The region registered under {@code stag}, or null. Lock-free and allocation-free. */
    RegisteredRegion get(int stag) {
        if (stag == Stag.RESERVED) {
            return null;
        }
        AtomicReferenceArray<RegisteredRegion> table = slots;
        int mask = table.length() - 1;
        int slot = spread(stag) & mask;
        for (int probes = 0; probes <= mask; probes++) {
            RegisteredRegion region = table.get(slot);
            if (region == null) {
                return null;
            }
            if (region.stag() == stag) {
                return region;
            }
            slot = slot + 1 & mask;
        }
        return null;
    }

    /** How many regions the table holds. */
    int size() {
        return live;
    }

    /** Adds a region whose STag the table does not hold yet. */
    void put(RegisteredRegion region) {
        if ((live + tombstones + 1) * 2 > slots.length()) {
            rebuild(Math.max(live + 1, INITIAL_SLOTS / 2));
        }
        AtomicReferenceArray<RegisteredRegion> table = slots;
        int mask = table.length() - 1;
        int slot = spread(region.stag()) & mask;
        while (true) {
            RegisteredRegion there = table.get(slot);
            if (there == null || there == TOMBSTONE) {
                if (there == TOMBSTONE) {
                    tombstones--;
                }
                table.set(slot, region);
                live++;
                return;
            }
            slot = slot + 1 & mask;
        }
    }

    /** Removes this very region; false if the table does not hold it. */
    boolean remove(RegisteredRegion region) {
        AtomicReferenceArray<RegisteredRegion> table = slots;
        int mask = table.length() - 1;
        int slot = spread(region.stag()) & mask;
        for (int probes = 0; probes <= mask; probes++) {
            RegisteredRegion there = table.get(slot);
            if (there == null) {
                return false;
            }
            if (there == region) {
                table.set(slot, TOMBSTONE);
                live--;
                tombstones++;
                return true;
            }
            slot = slot + 1 & mask;
        }
        return false;
    }

    /** Empties the table; returns what it held. */
    List<RegisteredRegion> removeAll() {
        AtomicReferenceArray<RegisteredRegion> table = slots;
        List<RegisteredRegion> removed = new ArrayList<>(live);
        for (int slot = 0; slot < table.length(); slot++) {
            RegisteredRegion region = table.get(slot);
            if (region != null && region != TOMBSTONE) {
                removed.add(region);
            }
        }
        slots = new AtomicReferenceArray<>(INITIAL_SLOTS);
        live = 0;
        tombstones = 0;
        return removed;
    }

    /** A fresh array for at least {@code entries} regions at most half full, without tombstones. */
    private void rebuild(int entries) {
        int length = Integer.highestOneBit(Math.max(INITIAL_SLOTS, entries * 4 - 1)) << 1;
        AtomicReferenceArray<RegisteredRegion> old = slots;
        AtomicReferenceArray<RegisteredRegion> fresh = new AtomicReferenceArray<>(length);
        int mask = length - 1;
        for (int i = 0; i < old.length(); i++) {
            RegisteredRegion region = old.get(i);
            if (region != null && region != TOMBSTONE) {
                int slot = spread(region.stag()) & mask;
                while (fresh.get(slot) != null) {
                    slot = slot + 1 & mask;
                }
                fresh.set(slot, region);
            }
        }
        tombstones = 0;
        slots = fresh;  // published complete: a lookup sees the old array or this one
    }

    /** Spreads the bits: STags are random, but a test's generator may not be. */
    private static int spread(int stag) {
        int h = stag * 0x9E37_79B9;
        return h ^ h >>> 16;
    }
}
