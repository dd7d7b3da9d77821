package io.extsock.core.verbs;

import io.extsock.core.rdmap.RdmapSegmentHeader;
import java.nio.ByteBuffer;

/**
 * RDMA Write (RFC 5040 section 4.3): tagged, one-sided. DDP's tagged check ({@link
 * RegionPlacementLookup#forRdmaWrite}: the STag names a region with the remote-write right,
 * the range fits) already ran; the payload goes straight into that region. Nothing completes
 * on this side.
 */
final class WriteHandler implements OpcodeHandler {

    private final RegionPlacementLookup writeTargets;

    WriteHandler(RegionPlacementLookup writeTargets) {
        this.writeTargets = writeTargets;
    }

    @Override
    public ByteBuffer segmentStarted(RdmapSegmentHeader header) {
        int length = header.ulpPayloadLength();
        if (length == 0) {
            return null;
        }
        // The region DDP's check just approved: no second lookup for a deregistration to race.
        return writeTargets.describedRegion().placementWindow(header.ddp().taggedOffset(), length);
    }

    @Override
    public void messageComplete(RdmapSegmentHeader header) {
        // one-sided: nothing to tell the application
    }
}
