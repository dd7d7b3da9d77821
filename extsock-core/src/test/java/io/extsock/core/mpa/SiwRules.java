package io.extsock.core.mpa;

/**
 * What Linux siw (6.1, default module parameters: no CRC required, not strict, relaxed IRD
 * negotiation, device maximum IRD/ORD 128) checks in a Reply to its Request, restated from its
 * connection manager so that tests can ask whether siw would go on with our Reply.
 */
final class SiwRules {

    static final int SIW_MAX_IRD_ORD = 128;

    private SiwRules() {
    }

    /** Null if siw, as Initiator, accepts this Reply to its Request, else why not. */
    static String initiatorRefusal(MpaFrame request, MpaFrame reply) {
        if (reply.revision() > 2) {
            return "revision above 2";
        }
        if (reply.type() != MpaFrameType.REPLY) {
            return "wrong key";
        }
        if (reply.rejected()) {
            return "rejected";
        }
        if (reply.markers()) {
            return "markers";
        }
        if (request.isEnhanced()) {
            if (reply.revision() < 2 || !reply.enhancedFlag()) {
                return "not enhanced";
            }
            EnhancedSetup asked = request.enhancedSetup().orElseThrow();
            EnhancedSetup answer = reply.enhancedSetup().orElseThrow();
            if (asked.ird() < answer.ord() && answer.ord() > SIW_MAX_IRD_ORD) {
                return "insufficient IRD";
            }
            if (asked.peerToPeer()) {
                int offered = asked.ordWord() & 0xC000;
                if ((offered & answer.ordWord()) == 0) {
                    return "no matching RTR";
                }
            }
        }
        return null;
    }

    /** The Reply siw, as Responder with ULP defaults (accepting IRD/ORD as offered), sends. */
    static MpaFrame responderReply(MpaFrame request) {
        if (request.markers()) {
            int flags = (request.flags() & ~MpaConstants.FLAG_MARKERS) | MpaConstants.FLAG_REJECT;
            return request.isEnhanced()
                    ? MpaFrame.of(MpaFrameType.REPLY, flags, request.revision(), PrivateData.of(new byte[4]))
                    : MpaFrame.of(MpaFrameType.REPLY, flags, request.revision(), PrivateData.EMPTY);
        }
        if (!request.isEnhanced()) {
            return MpaFrame.of(MpaFrameType.REPLY, request.flags(), request.revision(), PrivateData.EMPTY);
        }
        EnhancedSetup asked = request.enhancedSetup().orElseThrow();
        int ird = Math.min(asked.ord(), SIW_MAX_IRD_ORD);
        int ord = Math.min(asked.ird(), SIW_MAX_IRD_ORD);
        int irdWord = ird;
        int ordWord = ord;
        if (asked.peerToPeer()) {
            irdWord |= MpaConstants.IRD_PEER_TO_PEER;
            if (asked.rtrKinds().contains(RtrKind.ZERO_LENGTH_WRITE)) {
                ordWord |= MpaConstants.ORD_ZERO_LENGTH_WRITE_RTR;
            } else if (asked.rtrKinds().contains(RtrKind.ZERO_LENGTH_READ)) {
                ordWord |= MpaConstants.ORD_ZERO_LENGTH_READ_RTR;
            } else {
                ordWord |= MpaConstants.ORD_ZERO_LENGTH_WRITE_RTR;
            }
        }
        return MpaFrame.of(MpaFrameType.REPLY, request.flags(), request.revision(), PrivateData.of(
                (byte) (irdWord >> 8), (byte) irdWord, (byte) (ordWord >> 8), (byte) ordWord));
    }
}
