package io.extsock.testkit.wire;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which expert warnings the judge forgives: TCP's own, and RFC 6581's two only for clean revision 2. */
class ForgivenExpertWarningsTest {

    private static MpaSetupFrame setup(int revision, int reserved) {
        return new MpaSetupFrame(1, 0, Direction.INITIATOR_TO_RESPONDER, false, revision, false, true, false, reserved,
                4, "00010001", false, 24);
    }

    private static ExpertItem warning(String protocol, String message) {
        return new ExpertItem("warning", protocol, message, 0, 1);
    }

    @Test
    void tcpDoingItsJobIsForgivenOnlyFromTcp() {
        assertTrue(ForgivenExpertWarnings.tcpDoingItsJob(
                warning("TCP", "TCP window specified by the receiver is now completely full")));
        assertTrue(ForgivenExpertWarnings.tcpDoingItsJob(warning("tcp", "D-SACK Sequence")));
        assertFalse(ForgivenExpertWarnings.tcpDoingItsJob(warning("IWARP_MPA", "D-SACK Sequence")));
        assertFalse(ForgivenExpertWarnings.tcpDoingItsJob(
                warning("TCP", "Previous segment(s) not captured (common at capture start)")));
        assertTrue(ForgivenExpertWarnings.captureMissedSegments("Previous segment(s) not captured (common at capture start)"));
    }

    @Test
    void revisionTwoWarningsAreForgivenOnlyForRevisionTwoWithOnlyH() {
        ExpertItem revision = warning("IWARP_MPA", ForgivenExpertWarnings.MPA_REVISION_NOT_ONE);
        ExpertItem reserved = warning("IWARP_MPA", ForgivenExpertWarnings.MPA_RESERVED_NOT_ZERO);
        List<MpaSetupFrame> clean = List.of(setup(2, 0x10), setup(1, 0));
        assertTrue(ForgivenExpertWarnings.enhancedSetup(revision, clean));
        assertTrue(ForgivenExpertWarnings.enhancedSetup(reserved, clean));
        assertFalse(ForgivenExpertWarnings.enhancedSetup(revision, List.of(setup(2, 0x10), setup(3, 0x10))));
        assertFalse(ForgivenExpertWarnings.enhancedSetup(reserved, List.of(setup(2, 0x11))));
        assertFalse(ForgivenExpertWarnings.enhancedSetup(reserved, List.of(setup(1, 0x10))));
    }
}
