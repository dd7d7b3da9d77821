package io.extsock.core.verbs;

import io.extsock.core.ddp.TaggedBufferDescription;
import io.extsock.core.ddp.TaggedBufferLookup;
import io.extsock.core.ddp.TaggedPlacementChecker;
import io.extsock.verbs.Access;
import java.util.Objects;

/**
 * Answers DDP's question about an incoming tagged segment (RFC 5041 section 7.1 checks 1 and 2)
 * from a connection's {@link MemoryRegistry}; {@link TaggedPlacementChecker} then checks the
 * tagged offset against the answer (TO wrap, base and bounds) and names the Terminate cause.
 *
 * <ul>
 *   <li>no valid region for the STag (unknown, stale or guessed, deregistered, invalidated):
 *       "invalid STag" (DDP tagged buffer error, code 0x00);</li>
 *   <li>a valid region without the right this kind of placement needs: placement not allowed,
 *       which DDP also reports as "invalid STag", lacking an access-rights code (RFC 5041
 *       section 7.2), as Linux siw does;</li>
 *   <li>otherwise usable, spanning the zero-based TOs {@code [0, length)}.</li>
 * </ul>
 * "STag not associated with DDP stream" never comes out: the registry holds this connection's
 * regions only, so another connection's STag is just unknown here.
 *
 * <p>Two kinds of tagged message place data, each needing its own right:
 * <ul>
 *   <li>an RDMA Write from the peer (RFC 5040 section 5.1) needs {@link Access#REMOTE_WRITE}:
 *       {@link #forRdmaWrite};</li>
 *   <li>a Read Response to our own RDMA Read (RFC 5040 section 5.2) lands in the sink that
 *       our Read Request named, which needs {@link Access#LOCAL_WRITE} like any local
 *       destination: {@link #forReadResponse}. The engine should also check that the Read
 *       Response carries the sink STag and TO of its outstanding Read, as siw does.</li>
 * </ul>
 * A {@link TaggedPlacementChecker} takes one lookup, so the engine's lookup picks one of the two
 * by the RDMAP opcode of the segment being checked.
 *
 * <p>After {@link TaggedPlacementChecker#check} accepts a segment, {@link #describedRegion} is
 * the region it was checked against: place the payload into its {@link
 * RegisteredRegion#placementWindow}, with no second lookup that a deregistration could race.
 *
 * <p>Lock-free and allocation-free: called for every non-empty tagged segment. Each instance
 * belongs to one connection's receive path, used by one thread at a time.
 */
public final class RegionPlacementLookup implements TaggedBufferLookup {

    private final MemoryRegistry registry;
    private final Access required;
    private RegisteredRegion described;

    private RegionPlacementLookup(MemoryRegistry registry, Access required) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.required = required;
    }

    /** For the peer's RDMA Writes into our regions: needs REMOTE_WRITE. */
    public static RegionPlacementLookup forRdmaWrite(MemoryRegistry registry) {
        return new RegionPlacementLookup(registry, Access.REMOTE_WRITE);
    }

    /** For Read Responses into the sinks of our RDMA Reads: needs LOCAL_WRITE. */
    public static RegionPlacementLookup forReadResponse(MemoryRegistry registry) {
        return new RegionPlacementLookup(registry, Access.LOCAL_WRITE);
    }

    /** The right a region needs for this kind of placement. */
    public Access requiredRight() {
        return required;
    }

    @Override
    public void describe(int stag, TaggedBufferDescription answer) {
        RegisteredRegion region = registry.lookup(stag);
        described = null;
        if (region == null) {
            answer.noSuchStag();
        } else if (!region.allows(required)) {
            answer.placementNotAllowed();
        } else {
            described = region;
            answer.usable(0, region.length());
        }
    }

    /** The region of the last usable answer, or null when the last answer refused the STag. */
    public RegisteredRegion describedRegion() {
        return described;
    }
}
