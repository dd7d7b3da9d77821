package io.extsock.verbs;

/**
 * A window of a local registered region: one entry of a scatter or gather list.
 *
 * @param region the registered region
 * @param offset where the window starts in the region
 * @param length the window's length in bytes
 */
public record RegionSlice(MemoryRegion region, long offset, int length) {

    /**
     * Checks that the window lies within the region.
     *
     * @param region the registered region
     * @param offset where the window starts in the region
     * @param length the window's length in bytes
     * @throws NullPointerException if {@code region} is null
     * @throws IndexOutOfBoundsException if the window is negative or reaches past the region
     */
    public RegionSlice {
        if (region == null) {
            throw new NullPointerException("region");
        }
        if (offset < 0 || length < 0 || offset + length > region.length()) {
            throw new IndexOutOfBoundsException(
                    "slice [" + offset + ", +" + length + ") outside a region of " + region.length() + " bytes");
        }
    }
}
