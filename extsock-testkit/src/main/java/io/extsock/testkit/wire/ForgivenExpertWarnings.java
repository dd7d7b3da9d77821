package io.extsock.testkit.wire;

import java.util.List;

/**
 * The expert warnings that do not fail a capture, and why. Everything else Wireshark warns
 * about does.
 *
 * <p>TCP's own dissector warns about TCP doing its job. These say nothing about the iWARP
 * octets, which the byte accounting and the dissectors judge whatever TCP did; forgiven only
 * when TCP raised them:
 * <ul>
 * <li>"TCP window specified by the receiver is now completely full" and "TCP Zero Window
 *     segment": large FPDUs outran a reader; flow control working.</li>
 * <li>"D-SACK Sequence": the receiver saying it got a segment twice, the answer to a
 *     tail-loss probe (typically of the FIN that follows a Terminate, sent again because
 *     its ACK had not come back yet).</li>
 * <li>"This frame is a (suspected) retransmission", "... fast retransmission", "... spurious
 *     retransmission": that tail-loss probe itself (notes in Wireshark 4.0; listed in case a
 *     version raises them to warnings). Retransmitted octets are not counted twice.</li>
 * <li>"Connection reset (RST)": an abortive close, as a socket does when it closes with
 *     unread data and an engine may after a Terminate; a RST carries no payload to judge.</li>
 * </ul>
 * Not forgiven: "Previous segment(s) not captured" and "ACKed segment that wasn't captured"
 * (the capture lacks octets, so nothing can be judged: the judge captures again), and
 * "out-of-order segment" (loopback does not reorder).
 *
 * <p>MPA: RFC 6581 (revision 2 with the H bit) makes Wireshark 4.0, which knows only RFC 5044,
 * warn "Rev field is NOT set to one" and "Res field is NOT set to zero". Forgiven only when
 * every MPA Request and Reply that could have raised them is revision 2 with H as its only
 * reserved bit.
 */
final class ForgivenExpertWarnings {

    static final List<String> TCP_DOING_ITS_JOB = List.of(
            "TCP window specified by the receiver is now completely full",
            "TCP Zero Window segment",
            "D-SACK Sequence",
            "This frame is a (suspected) retransmission",
            "This frame is a (suspected) fast retransmission",
            "This frame is a (suspected) spurious retransmission",
            "Connection reset (RST)");

    static final String MPA_REVISION_NOT_ONE = "Rev field is NOT set to one as required by RFC 5044";
    static final String MPA_RESERVED_NOT_ZERO = "Res field is NOT set to zero as required by RFC 5044";

    /** Wireshark's words for a capture that lacks octets of the stream. */
    static final List<String> CAPTURE_MISSED_SEGMENTS = List.of(
            "Previous segment(s) not captured", "ACKed segment that wasn't captured");

    private ForgivenExpertWarnings() {
    }

    static boolean tcpDoingItsJob(ExpertItem warning) {
        return warning.protocol().equalsIgnoreCase("tcp")
                && TCP_DOING_ITS_JOB.stream().anyMatch(warning.message()::startsWith);
    }

    static boolean captureMissedSegments(String message) {
        return CAPTURE_MISSED_SEGMENTS.stream().anyMatch(message::startsWith);
    }

    /** The two RFC 6581 warnings, when each setup frame that could raise them is a clean revision 2 one. */
    static boolean enhancedSetup(ExpertItem warning, List<MpaSetupFrame> setups) {
        if (warning.message().startsWith(MPA_REVISION_NOT_ONE)) {
            return setups.stream().filter(s -> s.revision() != 1).allMatch(ForgivenExpertWarnings::cleanRevisionTwo);
        }
        if (warning.message().startsWith(MPA_RESERVED_NOT_ZERO)) {
            return setups.stream().filter(s -> s.reserved() != 0).allMatch(ForgivenExpertWarnings::cleanRevisionTwo);
        }
        return false;
    }

    private static boolean cleanRevisionTwo(MpaSetupFrame setup) {
        return setup.revision() == 2 && setup.reserved() == MpaSetupFrame.ENHANCED_BIT;
    }
}
