package io.extsock.core.mpa;

import static io.extsock.core.mpa.Bytes.ascii;
import static io.extsock.core.mpa.Bytes.concat;
import static io.extsock.core.mpa.Bytes.hex;
import static io.extsock.core.terminate.TerminateCause.LLP_MPA_INSUFFICIENT_IRD;
import static io.extsock.core.terminate.TerminateCause.LLP_MPA_INVALID_REQUEST_REPLY;
import static io.extsock.core.terminate.TerminateCause.LLP_MPA_NO_MATCHING_RTR;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class MpaNegotiationTest {

    private static final MpaPreferences DEFAULTS = MpaPreferences.defaults();

    // ---- Known answers: Linux siw ----------------------------------------------------------

    @Test
    @DisplayName("RFC 6581 section 7.1: our Responder answers the Linux initiator's Request IRD=ORD=1")
    void answerLinuxInitiator() throws Exception {
        MpaFrame request = parse(MpaFrameType.REQUEST, MpaFrameTest.LINUX_REQUEST);
        ResponderDecision decision = MpaNegotiation.respond(DEFAULTS, request);
        assertArrayEquals(concat(ascii("MPA ID Rep Frame"), hex("50 02 00 04 00 01 00 01")), decision.reply().toBytes());
        assertEquals(new MpaAgreement(MpaRole.RESPONDER, 2, true, true, false, false, 1, 1, false, Optional.empty(),
                PrivateData.EMPTY), decision.outcome());
        assertNull(SiwRules.initiatorRefusal(request, decision.reply()));
    }

    @Test
    @DisplayName("RFC 6581 section 7.1: siw's Reply to our default Request, IRD/ORD mirrored, Write RTR")
    void completeWithSiwResponder() throws Exception {
        MpaFrame request = MpaNegotiation.request(DEFAULTS);
        assertArrayEquals(concat(ascii("MPA ID Req Frame"), hex("50 02 00 04 80 10 c0 10")), request.toBytes());
        MpaFrame siwReply = SiwRules.responderReply(request);
        assertArrayEquals(concat(ascii("MPA ID Rep Frame"), hex("50 02 00 04 80 10 80 10")), siwReply.toBytes());
        MpaAgreement agreement = (MpaAgreement) MpaNegotiation.complete(DEFAULTS, request,
                parse(MpaFrameType.REPLY, siwReply.toBytes()));
        assertEquals(new MpaAgreement(MpaRole.INITIATOR, 2, true, true, false, false, 16, 16, true,
                Optional.of(RtrKind.ZERO_LENGTH_WRITE), PrivateData.EMPTY), agreement);
        assertTrue(agreement.sendsRtr());
        assertFalse(agreement.waitsForPeerFirstFpdu());
    }

    @Test
    @DisplayName("RFC 6581 section 7.1: siw as peer-to-peer Initiator (IRD=ORD=1, Write and Read RTR) gets a Write RTR")
    void answerSiwPeerToPeerInitiator() throws Exception {
        MpaFrame request = parse(MpaFrameType.REQUEST, concat(ascii("MPA ID Req Frame"), hex("10 02 00 04 80 01 c0 01")));
        ResponderDecision decision = MpaNegotiation.respond(DEFAULTS, request);
        assertArrayEquals(concat(ascii("MPA ID Rep Frame"), hex("50 02 00 04 80 01 80 01")), decision.reply().toBytes());
        MpaAgreement agreement = (MpaAgreement) decision.outcome();
        assertEquals(Optional.of(RtrKind.ZERO_LENGTH_WRITE), agreement.rtr());
        assertTrue(agreement.waitsForPeerFirstFpdu());
        assertFalse(agreement.sendsRtr());
        assertNull(SiwRules.initiatorRefusal(request, decision.reply()));
    }

    @Test
    @DisplayName("RFC 5044 section 7.1.1: siw refuses markers with R (M cleared, IRD/ORD zero); we say why")
    void siwRejectsMarkers() {
        MpaPreferences wantMarkers = DEFAULTS.toBuilder().requireMarkersOnReceive(true).build();
        MpaFrame request = MpaNegotiation.request(wantMarkers);
        MpaFrame siwReply = SiwRules.responderReply(request);
        assertArrayEquals(concat(ascii("MPA ID Rep Frame"), hex("70 02 00 04 00 00 00 00")), siwReply.toBytes());
        MpaFailure failure = (MpaFailure) MpaNegotiation.complete(wantMarkers, request, siwReply);
        assertEquals(MpaFailureReason.PEER_REJECTED, failure.reason());
        assertEquals(Optional.empty(), failure.terminate());
        assertTrue(failure.detail().contains("we required markers"), failure.detail());
    }

    @Test
    @DisplayName("RFC 6581: every Reply our Responder sends to siw-like Requests is one siw accepts")
    void siwAcceptsOurReplies() {
        List<MpaFrame> siwRequests = List.of(MpaFrameTest.LINUX_REQUEST, concat(ascii("MPA ID Req Frame"),
                hex("50 02 00 04 00 10 00 10")), concat(ascii("MPA ID Req Frame"), hex("10 02 00 04 80 07 c0 03")),
                concat(ascii("MPA ID Req Frame"), hex("10 02 00 04 80 01 80 00")), concat(ascii("MPA ID Req Frame"),
                hex("10 02 00 04 80 05 40 05")), concat(ascii("MPA ID Req Frame"), hex("18 02 00 04 00 01 00 01")))
                .stream().map(bytes -> MpaFrame.of(MpaFrameType.REQUEST, bytes[16] & 0xFF, bytes[17],
                        PrivateData.of(java.util.Arrays.copyOfRange(bytes, 20, bytes.length)))).toList();
        for (MpaPreferences preferences : List.of(DEFAULTS, DEFAULTS.toBuilder().requestCrc(false).ird(1).ord(0).build(),
                DEFAULTS.toBuilder().ird(200).ord(3).build())) {
            for (MpaFrame request : siwRequests) {
                ResponderDecision decision = MpaNegotiation.respond(preferences, request);
                assertInstanceOf(MpaAgreement.class, decision.outcome(), request + " " + preferences);
                assertNull(SiwRules.initiatorRefusal(request, decision.reply()), request + " " + preferences);
                assertEquals(0, decision.reply().reservedBits(), "RFC 5044: reserved bits are sent as zero");
            }
        }
    }

    // ---- CRC and markers, RFC 5044 section 7.1.1 --------------------------------------------

    @Test
    @DisplayName("RFC 5044 section 7.1.1: CRC is on when either frame sets C")
    void crcWhenEitherAsks() {
        for (boolean initiatorAsks : new boolean[] {false, true}) {
            for (boolean responderAsks : new boolean[] {false, true}) {
                MpaPreferences initiator = DEFAULTS.toBuilder().requestCrc(initiatorAsks).build();
                MpaPreferences responder = DEFAULTS.toBuilder().requestCrc(responderAsks).build();
                Pair pair = negotiate(initiator, responder);
                assertEquals(initiatorAsks || responderAsks, pair.initiator.crc());
                assertEquals(initiatorAsks || responderAsks, pair.responder.crc());
            }
        }
    }

    @Test
    @DisplayName("RFC 5044 section 7.1.1: M declares what its sender requires to receive; markers are per direction")
    void markersPerDirection() {
        MpaPreferences wantsMarkers = DEFAULTS.toBuilder().requireMarkersOnReceive(true).build();
        Pair initiatorWants = negotiate(wantsMarkers, DEFAULTS);
        assertTrue(initiatorWants.initiator.receiveMarkers());
        assertFalse(initiatorWants.initiator.sendMarkers());
        assertTrue(initiatorWants.responder.sendMarkers());
        assertFalse(initiatorWants.responder.receiveMarkers());
        Pair responderWants = negotiate(DEFAULTS, wantsMarkers);
        assertTrue(responderWants.initiator.sendMarkers());
        assertFalse(responderWants.initiator.receiveMarkers());
        assertTrue(responderWants.responder.receiveMarkers());
        assertFalse(responderWants.responder.sendMarkers());
    }

    @Test
    @DisplayName("RFC 5044 section 7.1.1: a side that will not send markers refuses an M it cannot honour")
    void markersRefused() {
        MpaPreferences noMarkers = DEFAULTS.toBuilder().sendMarkersWhenRequired(false).build();
        MpaPreferences wantsMarkers = DEFAULTS.toBuilder().requireMarkersOnReceive(true).build();
        MpaFrame request = MpaNegotiation.request(wantsMarkers);
        ResponderDecision decision = MpaNegotiation.respond(noMarkers, request);
        assertTrue(decision.reply().rejected());
        assertEquals(MpaFailureReason.MARKERS_REFUSED, ((MpaFailure) decision.outcome()).reason());

        MpaFrame ourRequest = MpaNegotiation.request(noMarkers);
        MpaFrame reply = MpaNegotiation.respond(wantsMarkers, ourRequest).reply();
        assertEquals(MpaFailureReason.MARKERS_REFUSED, ((MpaFailure) MpaNegotiation.complete(noMarkers, ourRequest, reply))
                .reason());
    }

    @Test
    @DisplayName("RFC 5044 section 7.1.1: R in the Reply is a rejection; the ULP's private data says why")
    void peerRejects() {
        MpaFrame request = MpaNegotiation.request(DEFAULTS);
        MpaFrame rejection = MpaNegotiation.rejection(DEFAULTS, request, PrivateData.of(ascii("busy")));
        assertArrayEquals(concat(ascii("MPA ID Rep Frame"), hex("70 02 00 08 00 00 00 00"), ascii("busy")),
                rejection.toBytes());
        MpaFailure failure = (MpaFailure) MpaNegotiation.complete(DEFAULTS, request, rejection);
        assertEquals(MpaFailureReason.PEER_REJECTED, failure.reason());
        assertEquals(PrivateData.of(ascii("busy")), failure.peerPrivateData());
        assertEquals(Optional.empty(), failure.terminate());
    }

    // ---- Revisions --------------------------------------------------------------------------

    @Test
    @DisplayName("RFC 5044 section 7.1.1: a revision 1 Initiator gets a revision 1 Reply without IRD/ORD or RTR")
    void revision1Initiator() {
        MpaPreferences revision1 = DEFAULTS.toBuilder().revision(1).privateData(PrivateData.of(ascii("hi"))).build();
        MpaFrame request = MpaNegotiation.request(revision1);
        assertArrayEquals(concat(ascii("MPA ID Req Frame"), hex("40 01 00 02"), ascii("hi")), request.toBytes());
        ResponderDecision decision = MpaNegotiation.respond(DEFAULTS, request);
        assertArrayEquals(concat(ascii("MPA ID Rep Frame"), hex("40 01 00 00")), decision.reply().toBytes());
        MpaAgreement responder = (MpaAgreement) decision.outcome();
        assertFalse(responder.enhanced());
        assertEquals(Optional.empty(), responder.rtr());
        assertTrue(responder.waitsForPeerFirstFpdu(), "RFC 5044 section 7.1.2: the Responder waits for the first FPDU");
        assertEquals(PrivateData.of(ascii("hi")), responder.peerPrivateData());
        MpaAgreement initiator = (MpaAgreement) MpaNegotiation.complete(revision1, request, decision.reply());
        assertEquals(1, initiator.revision());
        assertFalse(initiator.sendsRtr());
    }

    @Test
    @DisplayName("RFC 6581 section 6.1: a revision 1 Responder's Reply to our enhanced Request is accepted when allowed")
    void revision1Responder() {
        MpaFrame request = MpaNegotiation.request(DEFAULTS);
        MpaPreferences revision1 = DEFAULTS.toBuilder().revision(1).build();
        MpaFrame reply = MpaNegotiation.respond(revision1, request).reply();
        assertEquals(1, reply.revision());
        MpaAgreement agreement = (MpaAgreement) MpaNegotiation.complete(DEFAULTS, request, reply);
        assertFalse(agreement.enhanced());
        assertFalse(agreement.peerToPeer());
        MpaPreferences strict = DEFAULTS.toBuilder().acceptRevision1Peers(false).build();
        assertEquals(MpaFailureReason.UNSUPPORTED_REVISION,
                ((MpaFailure) MpaNegotiation.complete(strict, request, reply)).reason());
    }

    @Test
    @DisplayName("RFC 6581 section 6.1: a Responder that requires enhanced setup rejects a revision 1 Request")
    void strictResponderRejectsRevision1() {
        MpaFrame request = MpaNegotiation.request(DEFAULTS.toBuilder().revision(1).build());
        ResponderDecision decision = MpaNegotiation.respond(DEFAULTS.toBuilder().acceptRevision1Peers(false).build(), request);
        assertTrue(decision.reply().rejected());
        assertEquals(1, decision.reply().revision());
        assertEquals(MpaFailureReason.UNSUPPORTED_REVISION, ((MpaFailure) decision.outcome()).reason());
    }

    @Test
    @DisplayName("RFC 5044 section 7.1.1: a Reply may not claim a higher revision or an enhanced setup not offered")
    void replyContradictsRequest() {
        MpaPreferences revision1 = DEFAULTS.toBuilder().revision(1).build();
        MpaFrame request = MpaNegotiation.request(revision1);
        MpaFrame enhancedReply = MpaFrame.enhanced(MpaFrameType.REPLY, 0, new EnhancedSetup(1, 1, false, Set.of()),
                PrivateData.EMPTY);
        MpaFailure higher = (MpaFailure) MpaNegotiation.complete(revision1, request, enhancedReply);
        assertEquals(MpaFailureReason.MALFORMED, higher.reason());
        assertEquals(Optional.of(LLP_MPA_INVALID_REQUEST_REPLY), higher.terminate());

        MpaFrame plainRevision2 = MpaNegotiation.request(DEFAULTS.toBuilder().enhanced(false).build());
        assertEquals(MpaFailureReason.MALFORMED, ((MpaFailure) MpaNegotiation.complete(DEFAULTS, plainRevision2,
                enhancedReply)).reason());
    }

    @Test
    @DisplayName("RFC 6581 section 6.1: revision 2 without H is answered without enhanced setup")
    void revision2WithoutEnhanced() {
        MpaPreferences plain = DEFAULTS.toBuilder().enhanced(false).build();
        MpaFrame request = MpaNegotiation.request(plain);
        assertArrayEquals(concat(ascii("MPA ID Req Frame"), hex("40 02 00 00")), request.toBytes());
        ResponderDecision decision = MpaNegotiation.respond(DEFAULTS, request);
        assertArrayEquals(concat(ascii("MPA ID Rep Frame"), hex("40 02 00 00")), decision.reply().toBytes());
        assertFalse(((MpaAgreement) decision.outcome()).enhanced());
    }

    // ---- IRD and ORD, RFC 6581 section 7.1 --------------------------------------------------

    @Test
    @DisplayName("RFC 6581 section 7.1: the Responder answers IRD with its ORD and ORD with its IRD, capped")
    void responderMirrorsAndCaps() {
        MpaFrame request = MpaNegotiation.request(DEFAULTS.toBuilder().ird(40).ord(3).build());
        MpaPreferences small = DEFAULTS.toBuilder().ird(8).ord(8).build();
        ResponderDecision decision = MpaNegotiation.respond(small, request);
        EnhancedSetup answer = decision.reply().enhancedSetup().orElseThrow();
        assertEquals(3, answer.ird(), "our IRD need not exceed the Initiator's ORD");
        assertEquals(8, answer.ord(), "our ORD may not exceed the Initiator's IRD, nor our own limit");
        MpaAgreement agreement = (MpaAgreement) decision.outcome();
        assertEquals(3, agreement.ird());
        assertEquals(8, agreement.ord());
    }

    @Test
    @DisplayName("RFC 6581 section 7.1: the Initiator lowers its ORD to the Responder's IRD")
    void initiatorLowersOrd() {
        MpaPreferences initiator = DEFAULTS.toBuilder().ird(4).ord(10).build();
        Pair pair = negotiate(initiator, DEFAULTS.toBuilder().ird(2).ord(16).build());
        assertEquals(2, pair.initiator.ord());
        assertEquals(4, pair.initiator.ird());
        assertEquals(2, pair.responder.ird());
        assertEquals(4, pair.responder.ord());
    }

    @Test
    @DisplayName("RFC 6581 section 7.1: a Responder ORD above the Initiator's IRD is insufficient IRD, a Terminate")
    void insufficientIrd() {
        MpaPreferences initiator = DEFAULTS.toBuilder().ird(2).build();
        MpaFrame request = MpaNegotiation.request(initiator);
        MpaFrame greedy = MpaFrame.enhanced(MpaFrameType.REPLY, 0,
                new EnhancedSetup(16, 5, true, Set.of(RtrKind.ZERO_LENGTH_WRITE)), PrivateData.EMPTY);
        MpaFailure failure = (MpaFailure) MpaNegotiation.complete(initiator, request, greedy);
        assertEquals(MpaFailureReason.INSUFFICIENT_IRD, failure.reason());
        assertEquals(Optional.of(LLP_MPA_INSUFFICIENT_IRD), failure.terminate());
        assertTrue(failure.detail().contains("ORD 5 exceeds the IRD 2"), failure.detail());
    }

    // ---- Peer-to-peer and RTR, RFC 6581 section 7.1 -----------------------------------------

    @Test
    @DisplayName("RFC 6581 section 7.1: the Responder picks one RTR kind, Write before Read before Send")
    void responderPicksRtr() {
        Set<RtrKind> all = EnumSet.allOf(RtrKind.class);
        MpaPreferences everything = DEFAULTS.toBuilder().rtrKinds(all).build();
        assertEquals(Optional.of(RtrKind.ZERO_LENGTH_WRITE), negotiate(everything, everything).initiator.rtr());
        MpaPreferences readOrSend = DEFAULTS.toBuilder().rtrKinds(EnumSet.of(RtrKind.ZERO_LENGTH_READ,
                RtrKind.ZERO_LENGTH_SEND)).build();
        assertEquals(Optional.of(RtrKind.ZERO_LENGTH_READ), negotiate(readOrSend, everything).responder.rtr());
        MpaFrame reply = MpaNegotiation.respond(everything, MpaNegotiation.request(readOrSend)).reply();
        assertEquals(Set.of(RtrKind.ZERO_LENGTH_READ), reply.enhancedSetup().orElseThrow().rtrKinds());
    }

    @Test
    @DisplayName("RFC 6581 section 7.1: a Read RTR needs a read credit on both sides")
    void readRtrNeedsCredits() {
        MpaPreferences readOnly = DEFAULTS.toBuilder().rtrKinds(EnumSet.of(RtrKind.ZERO_LENGTH_READ,
                RtrKind.ZERO_LENGTH_SEND)).build();
        MpaFrame noOrd = MpaNegotiation.request(readOnly.toBuilder().ord(0).build());
        assertEquals(Set.of(RtrKind.ZERO_LENGTH_SEND), noOrd.enhancedSetup().orElseThrow().rtrKinds());
        ResponderDecision noIrd = MpaNegotiation.respond(readOnly.toBuilder().ird(0).rtrKinds(
                EnumSet.of(RtrKind.ZERO_LENGTH_READ)).build(), MpaNegotiation.request(readOnly));
        assertEquals(MpaFailureReason.NO_MATCHING_RTR, ((MpaFailure) noIrd.outcome()).reason());
    }

    @Test
    @DisplayName("RFC 6581 section 7.1: no common RTR kind: the Responder rejects")
    void responderHasNoMatchingRtr() {
        MpaPreferences sendOnly = DEFAULTS.toBuilder().rtrKinds(EnumSet.of(RtrKind.ZERO_LENGTH_SEND)).build();
        MpaFrame request = MpaNegotiation.request(sendOnly);
        ResponderDecision decision = MpaNegotiation.respond(DEFAULTS, request);
        assertTrue(decision.reply().rejected());
        MpaFailure failure = (MpaFailure) decision.outcome();
        assertEquals(MpaFailureReason.NO_MATCHING_RTR, failure.reason());
        assertEquals(Optional.empty(), failure.terminate(), "a Responder cannot send a Terminate before the first FPDU");
    }

    @Test
    @DisplayName("RFC 6581 section 7.1: a Reply whose RTR kind we did not offer is no matching RTR, a Terminate")
    void initiatorHasNoMatchingRtr() {
        MpaFrame request = MpaNegotiation.request(DEFAULTS);
        for (Set<RtrKind> chosen : List.of(Set.of(RtrKind.ZERO_LENGTH_SEND), Set.<RtrKind>of())) {
            MpaFrame reply = MpaFrame.enhanced(MpaFrameType.REPLY, 0, new EnhancedSetup(16, 16, true, chosen),
                    PrivateData.EMPTY);
            MpaFailure failure = (MpaFailure) MpaNegotiation.complete(DEFAULTS, request, reply);
            assertEquals(MpaFailureReason.NO_MATCHING_RTR, failure.reason());
            assertEquals(Optional.of(LLP_MPA_NO_MATCHING_RTR), failure.terminate());
        }
    }

    @Test
    @DisplayName("RFC 6581 section 7.1: without peer-to-peer no RTR is sent and the Responder waits")
    void clientServerModel() {
        Pair pair = negotiate(DEFAULTS.toBuilder().peerToPeer(false).build(), DEFAULTS);
        assertFalse(pair.initiator.peerToPeer());
        assertEquals(Optional.empty(), pair.initiator.rtr());
        assertFalse(pair.initiator.sendsRtr());
        assertTrue(pair.responder.waitsForPeerFirstFpdu());
    }

    // ---- Private data and preferences -------------------------------------------------------

    @Test
    @DisplayName("RFC 5044 section 7.1.4: each side's ULP private data reaches the other, without IRD/ORD")
    void privateDataExchanged() {
        Pair pair = negotiate(DEFAULTS.toBuilder().privateData(PrivateData.of(ascii("from initiator"))).build(),
                DEFAULTS.toBuilder().privateData(PrivateData.of(ascii("from responder"))).build());
        assertEquals(PrivateData.of(ascii("from responder")), pair.initiator.peerPrivateData());
        assertEquals(PrivateData.of(ascii("from initiator")), pair.responder.peerPrivateData());
    }

    @Test
    @DisplayName("RFC 6581 section 7.1: revision 2 leaves the ULP 508 octets, revision 1 all 512")
    void privateDataLimits() {
        DEFAULTS.toBuilder().privateData(PrivateData.of(new byte[508])).build();
        DEFAULTS.toBuilder().revision(1).privateData(PrivateData.of(new byte[512])).build();
        assertThrows(IllegalArgumentException.class,
                () -> DEFAULTS.toBuilder().privateData(PrivateData.of(new byte[509])).build());
        assertThrows(IllegalArgumentException.class, () -> DEFAULTS.toBuilder().revision(3).build());
        assertThrows(IllegalArgumentException.class, () -> DEFAULTS.toBuilder().ird(0x4000).build());
    }

    @Test
    void framesOfTheWrongTypeAreAProgrammingError() {
        MpaFrame request = MpaNegotiation.request(DEFAULTS);
        assertThrows(IllegalArgumentException.class, () -> MpaNegotiation.respond(DEFAULTS,
                MpaNegotiation.respond(DEFAULTS, request).reply()));
        assertThrows(IllegalArgumentException.class, () -> MpaNegotiation.complete(DEFAULTS, request, request));
    }

    private record Pair(MpaAgreement initiator, MpaAgreement responder) {
    }

    /** Both sides' agreements, the frames going through encoding and parsing. */
    private static Pair negotiate(MpaPreferences initiator, MpaPreferences responder) {
        try {
            MpaFrame request = parse(MpaFrameType.REQUEST, MpaNegotiation.request(initiator).toBytes());
            ResponderDecision decision = MpaNegotiation.respond(responder, request);
            MpaFrame reply = parse(MpaFrameType.REPLY, decision.reply().toBytes());
            MpaOutcome outcome = MpaNegotiation.complete(initiator, MpaNegotiation.request(initiator), reply);
            return new Pair(assertInstanceOf(MpaAgreement.class, outcome),
                    assertInstanceOf(MpaAgreement.class, decision.outcome()));
        } catch (MpaSetupException e) {
            throw new AssertionError(e);
        }
    }

    private static MpaFrame parse(MpaFrameType type, byte[] wire) throws MpaSetupException {
        ByteBuffer input = ByteBuffer.wrap(wire);
        MpaFrame frame = new MpaFrameParser(type).parse(input);
        assertFalse(input.hasRemaining());
        return frame;
    }
}
