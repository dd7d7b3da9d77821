package io.extsock.core.mpa;

import java.util.Objects;
import java.util.Optional;

/**
 * What both sides agreed on in connection setup: everything the framer, the deframer and the
 * layers above need for full operation.
 *
 * @param role which end this side is
 * @param revision the revision of the Reply
 * @param enhanced whether RFC 6581 enhanced setup took place (IRD/ORD were exchanged)
 * @param crc CRC32c in both directions: on when either frame set C, RFC 5044 section 7.1.1
 * @param sendMarkers whether we put markers in what we send: the peer's frame set M
 * @param receiveMarkers whether the peer puts markers in what we receive: our frame set M
 * @param ird the RDMA Read Requests the peer may have outstanding at us (negotiated when
 *     enhanced, our own limit otherwise)
 * @param ord the RDMA Read Requests we may have outstanding at the peer
 * @param peerToPeer whether the RFC 6581 peer-to-peer model is in effect
 * @param rtr the RTR frame the Initiator sends first, when peer-to-peer
 * @param peerPrivateData the peer's private data for the ULP, without the IRD/ORD words
 */
public record MpaAgreement(MpaRole role, int revision, boolean enhanced, boolean crc, boolean sendMarkers,
        boolean receiveMarkers, int ird, int ord, boolean peerToPeer, Optional<RtrKind> rtr,
        PrivateData peerPrivateData) implements MpaOutcome {

    public MpaAgreement {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(rtr, "rtr");
        Objects.requireNonNull(peerPrivateData, "peerPrivateData");
    }

    /** Whether this side must send the RTR frame before anything else. */
    public boolean sendsRtr() {
        return role == MpaRole.INITIATOR && rtr.isPresent();
    }

    /**
     * Whether this side may send no FPDU before the peer's first FPDU arrived (RFC 5044 section
     * 7.1.2): always true for the Responder; in the peer-to-peer model that first FPDU is the RTR.
     */
    public boolean waitsForPeerFirstFpdu() {
        return role == MpaRole.RESPONDER;
    }
}
