package io.extsock.core.mpa;

import static io.extsock.core.mpa.MpaConstants.FLAG_CRC;
import static io.extsock.core.mpa.MpaConstants.FLAG_MARKERS;
import static io.extsock.core.mpa.MpaConstants.FLAG_REJECT;
import static io.extsock.core.mpa.MpaConstants.REVISION_2;
import static io.extsock.core.terminate.TerminateCause.LLP_MPA_INSUFFICIENT_IRD;
import static io.extsock.core.terminate.TerminateCause.LLP_MPA_INVALID_REQUEST_REPLY;
import static io.extsock.core.terminate.TerminateCause.LLP_MPA_NO_MATCHING_RTR;

import io.extsock.core.terminate.TerminateCause;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The connection setup rules of RFC 5044 section 7.1 and RFC 6581 as pure functions: the
 * Initiator's Request, the Responder's decision on it, the Initiator's decision on the Reply.
 *
 * <p>What Linux siw does was the test of every rule: it sends a revision 2 enhanced Request,
 * answers with its IRD/ORD mirrored from ours, rejects markers, and rejects a Reply to its
 * enhanced Request that is not enhanced; each of its frames is accepted here, and each frame
 * made here is one it accepts.
 */
public final class MpaNegotiation {

    private MpaNegotiation() {
    }

    /** The Initiator's Request. */
    public static MpaFrame request(MpaPreferences preferences) {
        int flags = (preferences.requestCrc() ? FLAG_CRC : 0) | (preferences.requireMarkersOnReceive() ? FLAG_MARKERS : 0);
        if (preferences.revision() != REVISION_2 || !preferences.enhanced()) {
            return MpaFrame.of(MpaFrameType.REQUEST, flags, preferences.revision(), preferences.privateData());
        }
        Set<RtrKind> offered = preferences.peerToPeer() ? usableRtrKinds(preferences.rtrKinds(), preferences.ord())
                : Set.of();
        EnhancedSetup setup = new EnhancedSetup(preferences.ird(), preferences.ord(), !offered.isEmpty(), offered);
        return MpaFrame.enhanced(MpaFrameType.REQUEST, flags, setup, preferences.privateData());
    }

    /**
     * The Responder's decision on a Request: the Reply to send and the agreement it makes, or a
     * rejecting Reply and the reason.
     */
    public static ResponderDecision respond(MpaPreferences preferences, MpaFrame request) {
        requireType(request, MpaFrameType.REQUEST);
        int revision = Math.min(request.revision(), preferences.revision());
        boolean enhanced = request.isEnhanced() && revision == REVISION_2;
        if (!enhanced && preferences.revision() == REVISION_2 && !preferences.acceptRevision1Peers()) {
            return refuse(preferences, request, MpaFailureReason.UNSUPPORTED_REVISION, "the Initiator offers revision "
                    + request.revision() + " without enhanced setup (RFC 6581), and revision 1 peers are not accepted");
        }
        if (request.markers() && !preferences.sendMarkersWhenRequired()) {
            return refuse(preferences, request, MpaFailureReason.MARKERS_REFUSED,
                    "the Initiator requires markers (M) and we do not send them");
        }
        boolean crc = request.crc() || preferences.requestCrc();
        int flags = (crc ? FLAG_CRC : 0) | (preferences.requireMarkersOnReceive() ? FLAG_MARKERS : 0);
        if (!enhanced) {
            MpaFrame reply = MpaFrame.of(MpaFrameType.REPLY, flags, revision, preferences.privateData());
            return new ResponderDecision(reply, new MpaAgreement(MpaRole.RESPONDER, revision, false, crc,
                    request.markers(), preferences.requireMarkersOnReceive(), preferences.ird(), preferences.ord(),
                    false, Optional.empty(), request.ulpPrivateData()));
        }
        Optional<EnhancedSetup> offered = request.enhancedSetup();
        if (offered.isEmpty()) {
            return refuse(preferences, request, MpaFailureReason.MALFORMED,
                    "the Request sets H but has no room for the IRD and ORD words");
        }
        EnhancedSetup offer = offered.get();
        // RFC 6581 section 7.1: the Responder's ORD may not exceed the Initiator's IRD; its IRD
        // need not exceed the Initiator's ORD. Like siw, answer the Initiator's ORD with our IRD
        // and its IRD with our ORD, each capped by what we support.
        int ird = Math.min(preferences.ird(), offer.ord());
        int ord = Math.min(preferences.ord(), offer.ird());
        Optional<RtrKind> rtr = Optional.empty();
        if (offer.peerToPeer()) {
            rtr = firstCommonRtr(offer.rtrKinds(), preferences.rtrKinds(), ird);
            if (rtr.isEmpty()) {
                return refuse(preferences, request, MpaFailureReason.NO_MATCHING_RTR, "the Initiator offers RTR "
                        + offer.rtrKinds() + ", we accept " + preferences.rtrKinds() + " (a Read RTR needs IRD >= 1)");
            }
        }
        EnhancedSetup answer = new EnhancedSetup(ird, ord, offer.peerToPeer(), rtr.map(EnumSet::of)
                .orElse(EnumSet.noneOf(RtrKind.class)));
        MpaFrame reply = MpaFrame.enhanced(MpaFrameType.REPLY, flags, answer, preferences.privateData());
        return new ResponderDecision(reply, new MpaAgreement(MpaRole.RESPONDER, REVISION_2, true, crc,
                request.markers(), preferences.requireMarkersOnReceive(), ird, ord, offer.peerToPeer(), rtr,
                request.ulpPrivateData()));
    }

    /**
     * A Reply that rejects the Request (R set, RFC 5044 section 7.1.1), carrying the ULP's
     * reason: for a Responder whose ULP turns the connection down. In answer to an enhanced
     * Request it is enhanced too, with IRD and ORD zero, as siw's rejections are.
     */
    public static MpaFrame rejection(MpaPreferences preferences, MpaFrame request, PrivateData ulpData) {
        requireType(request, MpaFrameType.REQUEST);
        int revision = Math.min(request.revision(), preferences.revision());
        int flags = FLAG_REJECT | (request.crc() || preferences.requestCrc() ? FLAG_CRC : 0);
        if (request.isEnhanced() && revision == REVISION_2) {
            return MpaFrame.enhanced(MpaFrameType.REPLY, flags, new EnhancedSetup(0, 0, false, Set.of()), ulpData);
        }
        return MpaFrame.of(MpaFrameType.REPLY, flags, revision, ulpData);
    }

    /** The Initiator's decision on the Reply to its Request. */
    public static MpaOutcome complete(MpaPreferences preferences, MpaFrame request, MpaFrame reply) {
        requireType(request, MpaFrameType.REQUEST);
        requireType(reply, MpaFrameType.REPLY);
        if (reply.rejected()) {
            String hint = request.markers() ? "; we required markers, which many peers (Linux siw among them) refuse"
                    : "";
            return failure(MpaFailureReason.PEER_REJECTED, "the Responder rejected the connection (R set) with "
                    + reply.ulpPrivateData().length() + " octets of private data" + hint, null, reply);
        }
        if (reply.revision() > request.revision()) {
            return failure(MpaFailureReason.MALFORMED, "the Reply has revision " + reply.revision()
                    + ", higher than our Request's " + request.revision(), LLP_MPA_INVALID_REQUEST_REPLY, reply);
        }
        if (reply.isEnhanced() && !request.isEnhanced()) {
            return failure(MpaFailureReason.MALFORMED, "the Reply uses enhanced setup (H) our Request did not offer",
                    LLP_MPA_INVALID_REQUEST_REPLY, reply);
        }
        if (request.isEnhanced() && !reply.isEnhanced() && !preferences.acceptRevision1Peers()) {
            return failure(MpaFailureReason.UNSUPPORTED_REVISION, "the Responder answered revision " + reply.revision()
                    + " without enhanced setup, and revision 1 peers are not accepted", null, reply);
        }
        if (reply.markers() && !preferences.sendMarkersWhenRequired()) {
            return failure(MpaFailureReason.MARKERS_REFUSED, "the Responder requires markers (M) and we do not send them",
                    null, reply);
        }
        boolean crc = request.crc() || reply.crc();
        if (!reply.isEnhanced()) {
            return new MpaAgreement(MpaRole.INITIATOR, reply.revision(), false, crc, reply.markers(), request.markers(),
                    preferences.ird(), preferences.ord(), false, Optional.empty(), reply.ulpPrivateData());
        }
        if (request.enhancedSetup().isEmpty() || reply.enhancedSetup().isEmpty()) {
            return failure(MpaFailureReason.MALFORMED, "a frame sets H but has no room for the IRD and ORD words",
                    LLP_MPA_INVALID_REQUEST_REPLY, reply);
        }
        EnhancedSetup asked = request.enhancedSetup().get();
        EnhancedSetup answer = reply.enhancedSetup().get();
        // RFC 6581 section 7.1: we cannot serve more reads than the IRD we offered; fewer reads
        // than we asked for are fine, we lower our ORD to the Responder's IRD.
        if (answer.ord() > asked.ird()) {
            return failure(MpaFailureReason.INSUFFICIENT_IRD, "the Responder's ORD " + answer.ord()
                    + " exceeds the IRD " + asked.ird() + " we offered", LLP_MPA_INSUFFICIENT_IRD, reply);
        }
        int ord = Math.min(asked.ord(), answer.ird());
        Optional<RtrKind> rtr = Optional.empty();
        if (asked.peerToPeer()) {
            rtr = firstCommonRtr(answer.rtrKinds(), asked.rtrKinds(), ord);
            if (rtr.isEmpty()) {
                return failure(MpaFailureReason.NO_MATCHING_RTR, "we offered RTR " + asked.rtrKinds()
                        + " and the Responder chose " + answer.rtrKinds(), LLP_MPA_NO_MATCHING_RTR, reply);
            }
        }
        return new MpaAgreement(MpaRole.INITIATOR, REVISION_2, true, crc, reply.markers(), request.markers(),
                answer.ord(), ord, asked.peerToPeer(), rtr, reply.ulpPrivateData());
    }

    /**
     * The first RTR kind, in {@link RtrKind} order, that the peer named and we can use with this
     * many read credits.
     */
    private static Optional<RtrKind> firstCommonRtr(Set<RtrKind> theirs, Set<RtrKind> ours, int readCredits) {
        Set<RtrKind> common = usableRtrKinds(ours, readCredits);
        common.retainAll(theirs);
        return common.stream().findFirst();
    }

    /** The kinds we can send or accept: a zero-length Read needs one read credit on both sides. */
    private static Set<RtrKind> usableRtrKinds(Set<RtrKind> kinds, int readCredits) {
        Set<RtrKind> usable = kinds.isEmpty() ? EnumSet.noneOf(RtrKind.class) : EnumSet.copyOf(kinds);
        if (readCredits == 0) {
            usable.remove(RtrKind.ZERO_LENGTH_READ);
        }
        return usable;
    }

    private static ResponderDecision refuse(MpaPreferences preferences, MpaFrame request, MpaFailureReason reason,
            String detail) {
        return new ResponderDecision(rejection(preferences, request, PrivateData.EMPTY),
                new MpaFailure(reason, detail, Optional.empty(), request.ulpPrivateData()));
    }

    private static MpaFailure failure(MpaFailureReason reason, String detail, TerminateCause terminate,
            MpaFrame reply) {
        return new MpaFailure(reason, detail, Optional.ofNullable(terminate), reply.ulpPrivateData());
    }

    private static void requireType(MpaFrame frame, MpaFrameType type) {
        if (frame.type() != type) {
            throw new IllegalArgumentException("expected an MPA " + type + ", got " + frame);
        }
    }
}
