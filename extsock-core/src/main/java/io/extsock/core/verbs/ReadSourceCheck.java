package io.extsock.core.verbs;

import io.extsock.core.terminate.TerminateCause;
import io.extsock.verbs.Access;
import java.util.Objects;

/**
 * Checks the source of an incoming RDMA Read Request against a connection's {@link
 * MemoryRegistry} before the Read Response reads it (RFC 5040 section 5.2: the Data Source
 * validates SrcSTag, SrcTO and RDMARDSZ; failures are RDMAP Remote Protection Errors, section
 * 4.8 and 7.2). In this order:
 * <ol>
 *   <li>no valid region for SrcSTag (unknown, stale or guessed, deregistered,
 *       invalidated): {@link TerminateCause#RDMAP_INVALID_STAG};</li>
 *   <li>the region lacks {@link Access#REMOTE_READ}: {@link TerminateCause#RDMAP_ACCESS_RIGHTS};</li>
 *   <li>SrcTO + RDMARDSZ wraps 2^64: {@link TerminateCause#RDMAP_TO_WRAP}, tested before the
 *       bounds so that the bounds arithmetic never sees a wrapped sum (as DDP's checker does);</li>
 *   <li>the range leaves the region's TOs {@code [0, length)}: {@link
 *       TerminateCause#RDMAP_BASE_OR_BOUNDS}.</li>
 * </ol>
 * A zero-length Read is not checked at all: nothing is read, and RFC 6581 section 7's
 * zero-length RDMA Read ready-to-receive carries STag 0, which names no region. "STag not
 * associated with RDMAP stream" never comes out: the registry holds this connection's regions
 * only, so another connection's STag is just invalid here.
 *
 * <p>The engine calls {@link #check} when the Read Request arrives and again when it is about to
 * send the Read Response, as the application may deregister the region in between (siw
 * re-checks the source at transmit time too). Lock-free and allocation-free.
 */
public final class ReadSourceCheck {

    private static final long MAX_READ_SIZE = 0xFFFF_FFFFL;

    private final MemoryRegistry registry;

    public ReadSourceCheck(MemoryRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /**
     * @param sourceStag         SrcSTag of the Read Request
     * @param sourceTaggedOffset SrcTO, an unsigned 64-bit value
     * @param readSize           RDMARDSZ, 0 to 2^32 - 1
     * @return null when the Read may be served; else the Terminate cause
     */
    public TerminateCause check(int sourceStag, long sourceTaggedOffset, long readSize) {
        if (readSize < 0 || readSize > MAX_READ_SIZE) {
            throw new IllegalArgumentException("RDMARDSZ is 32 bits (RFC 5040 section 4.4): " + readSize);
        }
        if (readSize == 0) {
            return null;
        }
        RegisteredRegion region = registry.lookup(sourceStag);
        if (region == null) {
            return TerminateCause.RDMAP_INVALID_STAG;
        }
        if (!region.allows(Access.REMOTE_READ)) {
            return TerminateCause.RDMAP_ACCESS_RIGHTS;
        }
        long end = sourceTaggedOffset + readSize;
        if (Long.compareUnsigned(end, sourceTaggedOffset) < 0) {
            return TerminateCause.RDMAP_TO_WRAP;
        }
        if (Long.compareUnsigned(end, region.length()) > 0) {
            return TerminateCause.RDMAP_BASE_OR_BOUNDS;
        }
        return null;
    }

    /**
     * Words for a refused Read, for the log and the Terminate's exception (allocates; failures
     * only). Without the cause's own words, which the exception and the reason put before them.
     */
    public static String describe(int sourceStag, long sourceTaggedOffset, long readSize) {
        return String.format("RDMA Read of %d octets at TO %s of STag %s refused (RFC 5040 sections 5.2 and 7.2)",
                readSize, Long.toUnsignedString(sourceTaggedOffset), Stag.toString(sourceStag));
    }
}
