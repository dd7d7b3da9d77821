package io.extsock.testkit.wire;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Judges what tshark made of one capture: which PDUs it decoded, and every reason to fail.
 *
 * <p>Fail reasons: nothing decoded as iWARP; a stream without its MPA Request; malformed
 * packets; expert errors; expert warnings but the forgiven ones ({@link ForgivenExpertWarnings});
 * bad CRCs (which Wireshark shows only in a field's text); TCP payload that no decoded MPA frame
 * accounts for; and every finding of {@link IwarpLint}.
 */
final class CaptureAnalysis {

    final List<IwarpPdu> pdus = new ArrayList<>();
    final List<Finding> findings = new ArrayList<>();
    final List<String> notes = new ArrayList<>();
    final List<ExpertItem> forgiven = new ArrayList<>();

    static CaptureAnalysis of(List<DissectedPacket> packets, List<ExpertItem> summary) {
        CaptureAnalysis analysis = new CaptureAnalysis();
        analysis.analyse(packets, summary);
        return analysis;
    }

    private void analyse(List<DissectedPacket> packets, List<ExpertItem> summary) {
        Map<Integer, List<DissectedPacket>> streams = new TreeMap<>();
        for (DissectedPacket packet : packets) {
            if (packet.stream >= 0) {
                streams.computeIfAbsent(packet.stream, s -> new ArrayList<>()).add(packet);
            }
            for (String malformed : packet.malformed) {
                findings.add(new Finding(Finding.Kind.MALFORMED, packet.frame, packet.stream, null, malformed));
            }
        }
        for (Map.Entry<Integer, List<DissectedPacket>> stream : streams.entrySet()) {
            stream(stream.getKey(), stream.getValue());
        }
        if (pdus.isEmpty()) {
            findings.add(new Finding(Finding.Kind.NO_IWARP, 0, -1, null, "no iWARP PDU recognized in the capture"));
        }
        for (Fpdu bad : fpdus().stream().filter(f -> f.crc() == CrcStatus.BAD).toList()) {
            findings.add(Finding.at(Finding.Kind.BAD_CRC, bad, String.format("bad MPA CRC 0x%08x", bad.crcField())));
        }
        experts(packets, summary);
        findings.sort(Comparator.comparingInt(Finding::frame));
    }

    private List<Fpdu> fpdus() {
        return pdus.stream().filter(Fpdu.class::isInstance).map(Fpdu.class::cast).toList();
    }

    private void stream(int id, List<DissectedPacket> packets) {
        String initiator = null;
        for (DissectedPacket packet : packets) {
            if (packet.hasField("iwarp_mpa.req")) {
                initiator = packet.source;
                break;
            }
        }
        // Octets each endpoint put on the stream, and how many of them decoded MPA frames cover.
        Map<String, long[]> octets = new LinkedHashMap<>();
        List<IwarpPdu> decoded = new ArrayList<>();
        List<Integer> sharedWithSetup = new ArrayList<>();
        for (DissectedPacket packet : packets) {
            Direction direction = initiator == null ? Direction.UNKNOWN
                    : packet.source.equals(initiator) ? Direction.INITIATOR_TO_RESPONDER
                    : Direction.RESPONDER_TO_INITIATOR;
            List<IwarpPdu> inPacket = PduDecoder.decode(packet, direction);
            if (packet.retransmission) {
                // Octets sent before: counted, and judged, where they first went by.
                if (!inPacket.isEmpty()) {
                    notes.add("frame " + packet.frame + ": a retransmission; its " + inPacket.size()
                            + " decoded PDU(s) are judged where they were first sent");
                }
                continue;
            }
            long[] count = octets.computeIfAbsent(packet.source, s -> new long[2]);
            count[0] += packet.tcpLength;
            for (IwarpPdu pdu : inPacket) {
                count[1] += pdu.octets();
            }
            if (inPacket.stream().anyMatch(MpaSetupFrame.class::isInstance)
                    && packet.tcpLength > inPacket.stream().mapToInt(IwarpPdu::octets).sum()) {
                sharedWithSetup.add(packet.frame);
            }
            decoded.addAll(inPacket);
        }
        long payload = octets.values().stream().mapToLong(c -> c[0]).sum();
        if (initiator == null && payload > 0) {
            findings.add(new Finding(Finding.Kind.NO_HANDSHAKE, packets.get(0).frame, id, null, payload
                    + " octets of TCP payload, but no MPA Request in the capture: Wireshark decodes iWARP only from"
                    + " a segment that starts with \"MPA ID Req Frame\""));
        }
        for (Map.Entry<String, long[]> endpoint : octets.entrySet()) {
            long[] count = endpoint.getValue();
            if (count[0] != count[1]) {
                Direction direction = initiator == null ? Direction.UNKNOWN : endpoint.getKey().equals(initiator)
                        ? Direction.INITIATOR_TO_RESPONDER : Direction.RESPONDER_TO_INITIATOR;
                findings.add(new Finding(Finding.Kind.UNDECODED, 0, id, direction, (count[0] - count[1])
                        + " octet(s) of TCP payload from " + endpoint.getKey() + " not decoded as iWARP (" + count[0]
                        + " sent, " + count[1] + " in MPA frames): misframing, a wrong ULPDU_Length, markers not as"
                        + " negotiated, or a truncated stream" + (sharedWithSetup.isEmpty() ? ""
                        : "; frame(s) " + sharedWithSetup + " carry octets after the MPA Request/Reply in the same"
                        + " segment, which Wireshark 4.0 never decodes")));
            }
        }
        List<IwarpPdu> marked = IwarpLint.recognizeReadyToReceive(decoded, findings);
        new IwarpLint(findings, notes).check(marked);
        pdus.addAll(marked);
    }

    private void experts(List<DissectedPacket> packets, List<ExpertItem> summary) {
        List<MpaSetupFrame> setups = pdus.stream().filter(MpaSetupFrame.class::isInstance)
                .map(MpaSetupFrame.class::cast).toList();
        Map<Integer, Integer> streamOf = new TreeMap<>();
        Set<String> inTree = new HashSet<>();
        for (DissectedPacket packet : packets) {
            streamOf.put(packet.frame, packet.stream);
            for (ExpertItem item : packet.experts) {
                inTree.add(item.severity() + "|" + item.message());
                judgeExpert(item, packet.stream, setups);
            }
        }
        // Items without a tree item (MPA's own) appear only in the summary, without a frame.
        for (ExpertItem item : summary) {
            if (!inTree.contains(item.severity() + "|" + item.message())) {
                judgeExpert(item, -1, setups);
            }
        }
    }

    private void judgeExpert(ExpertItem item, int stream, List<MpaSetupFrame> setups) {
        if (item.isError()) {
            findings.add(new Finding(Finding.Kind.EXPERT_ERROR, item.frame(), stream, null,
                    item.protocol() + ": " + item.message() + countText(item)));
        } else if (item.isWarning()) {
            if (ForgivenExpertWarnings.tcpDoingItsJob(item) || ForgivenExpertWarnings.enhancedSetup(item, setups)) {
                forgiven.add(item);
            } else {
                findings.add(new Finding(Finding.Kind.EXPERT_WARNING, item.frame(), stream, null,
                        item.protocol() + ": " + item.message() + countText(item)));
            }
        }
    }

    private static String countText(ExpertItem item) {
        return item.count() > 1 ? " (x" + item.count() + ")" : "";
    }
}
