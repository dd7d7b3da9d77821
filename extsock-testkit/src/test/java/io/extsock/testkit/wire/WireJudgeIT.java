package io.extsock.testkit.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Timeout;

/**
 * The judge judged: traffic written octet by octet ({@link HandmadeTraffic}) in a child JVM,
 * captured on lo. The conformant conversations must pass, with the PDUs decoded as sent; each
 * faulty one must fail with the finding it was built to provoke. Needs root and tshark.
 */
@Tag("interop")
@Timeout(300)
class WireJudgeIT {

    private static WireJudge judge;

    @BeforeAll
    static void install() throws Exception {
        judge = WireJudge.ready();
    }

    private static Verdict capture(String suite) throws Exception {
        int port = freePort();
        Path pcap = Files.createTempFile("wire-judge-" + suite, ".pcapng");
        try {
            return judge.captureAndJudge(port, pcap, List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), HandmadeTraffic.class.getName(),
                    String.valueOf(port), suite));
        } finally {
            Files.deleteIfExists(pcap);
        }
    }

    @Test
    void conformantTrafficPassesAndIsDecodedAsSent() throws Exception {
        Verdict verdict = capture("clean");
        String report = verdict.report();
        assertTrue(verdict.passed(), report);
        assertEquals(0, verdict.exitCode(), report);
        assertEquals(2 * HandmadeTraffic.Clean.values().length, verdict.setupFrames().size(), report);
        for (RdmapOpcode opcode : List.of(RdmapOpcode.SEND, RdmapOpcode.WRITE, RdmapOpcode.READ_REQUEST,
                RdmapOpcode.READ_RESPONSE, RdmapOpcode.SEND_WITH_INVALIDATE, RdmapOpcode.SEND_WITH_SOLICITED_EVENT,
                RdmapOpcode.TERMINATE)) {
            assertFalse(verdict.fpdus(opcode).isEmpty(), opcode + " missing:\n" + report);
        }
        // The 3-segment Send of REV1_CRC went in one write: all three decoded, MO continuous.
        List<Fpdu> multi = verdict.fpdus(RdmapOpcode.SEND).stream()
                .filter(f -> f.stream() == HandmadeTraffic.Clean.REV1_CRC.ordinal() && f.header().messageSequence() == 2)
                .toList();
        assertEquals(List.of(0L, 100L, 200L), multi.stream().map(f -> f.header().messageOffset()).toList(), report);
        assertEquals(List.of(false, false, true), multi.stream().map(f -> f.header().last()).toList(), report);

        Fpdu read = verdict.fpdus(RdmapOpcode.READ_REQUEST).get(0);
        assertEquals(new ReadRequestFields(0xcafe0001L, 0x2000, 300, 0x5eed0002L, 0x8000), read.header().readRequest());
        Fpdu invalidate = verdict.fpdus(RdmapOpcode.SEND_WITH_INVALIDATE).get(0);
        assertEquals(0x77L, invalidate.header().invalidateStag(), report);
        Fpdu terminate = verdict.fpdus(RdmapOpcode.TERMINATE).get(0);
        assertEquals(2, terminate.header().terminate().errorType(), report);
        assertEquals(6, terminate.header().terminate().errorCode(), report);

        int noCrc = HandmadeTraffic.Clean.REV1_NO_CRC.ordinal();
        assertTrue(verdict.fpdus().stream().filter(f -> f.stream() == noCrc)
                .allMatch(f -> f.crc() == CrcStatus.NOT_NEGOTIATED), report);
        int responderCrc = HandmadeTraffic.Clean.CRC_FROM_RESPONDER_ONLY.ordinal();
        assertTrue(verdict.fpdus().stream().filter(f -> f.stream() == responderCrc)
                .allMatch(f -> f.crc() == CrcStatus.GOOD), report);

        int enhanced = HandmadeTraffic.Clean.REV2_ENHANCED.ordinal();
        MpaSetupFrame request = verdict.setupFrames().stream().filter(s -> s.stream() == enhanced && s.request())
                .findFirst().orElseThrow();
        assertTrue(request.enhanced() && request.peerToPeer() && request.writeRtr() && request.readRtr(), report);
        assertEquals(16, request.ird(), report);
        assertEquals(16, request.ord(), report);
        List<Fpdu> rtr = verdict.fpdus().stream().filter(Fpdu::readyToReceive).toList();
        assertEquals(1, rtr.size(), report);
        assertEquals(enhanced, rtr.get(0).stream(), report);
        assertTrue(rtr.get(0).is(RdmapOpcode.WRITE) && rtr.get(0).payloadLength() == 0, report);

        int markers = HandmadeTraffic.Clean.MARKERS.ordinal();
        List<Fpdu> marked = verdict.fpdus().stream().filter(f -> f.stream() == markers).toList();
        assertTrue(marked.stream().allMatch(f -> f.crc() == CrcStatus.GOOD), report);
        assertTrue(marked.stream().mapToInt(f -> f.markers().size()).sum() >= 10, report);
        assertTrue(marked.stream().anyMatch(Fpdu::padHidden) || marked.stream().anyMatch(
                f -> f.markers().stream().anyMatch(m -> m.offset() + 8 == f.octets())), "a marker before a CRC:\n" + report);
        assertTrue(marked.stream().filter(f -> !f.markers().isEmpty()).anyMatch(f -> f.markers().get(0).offset() == 0
                && f.markers().get(0).fpduPointer() == 0), "a leading marker:\n" + report);
        assertTrue(report.contains("RESULT: PASS"), report);
    }

    @Test
    void eachFaultFailsWithItsFinding() throws Exception {
        Verdict verdict = capture("faulty");
        String report = verdict.report();
        assertFalse(verdict.passed(), report);
        assertEquals(0, verdict.exitCode(), "the traffic itself was sent:\n" + report);
        StringBuilder missing = new StringBuilder();
        for (HandmadeTraffic.Faulty fault : HandmadeTraffic.Faulty.values()) {
            List<Finding> found = verdict.findingsInStream(fault.ordinal());
            boolean expected = found.stream().anyMatch(f -> f.kind() == fault.kind && f.message().contains(fault.message))
                    // tshark's expert summary does not say where: such findings have no stream.
                    || fault.kind == Finding.Kind.EXPERT_WARNING && verdict.findings(fault.kind).stream()
                    .anyMatch(f -> f.message().contains(fault.message));
            if (!expected) {
                missing.append(fault).append(": no ").append(fault.kind).append(" \"").append(fault.message)
                        .append("\" among ").append(found).append('\n');
            }
        }
        assertEquals("", missing.toString(), report);
        assertTrue(report.contains("RESULT: FAIL"), report);
    }

    @Test
    void aFailingCaptureIsKeptWhereTheTestDoesNotDeleteIt(@TempDir Path kept) throws Exception {
        String before = System.getProperty(WireJudge.KEPT_CAPTURES_PROPERTY);
        System.setProperty(WireJudge.KEPT_CAPTURES_PROPERTY, kept.toString());
        Verdict verdict;
        try {
            verdict = capture("faulty");
        } finally {
            if (before == null) {
                System.clearProperty(WireJudge.KEPT_CAPTURES_PROPERTY);
            } else {
                System.setProperty(WireJudge.KEPT_CAPTURES_PROPERTY, before);
            }
        }
        String report = verdict.report();
        assertFalse(verdict.passed(), report);
        java.util.regex.Matcher named = java.util.regex.Pattern.compile("the failing capture is kept at (\\S+)")
                .matcher(report);
        assertTrue(named.find(), report);
        Path copy = Path.of(named.group(1));
        assertEquals(kept.toAbsolutePath(), copy.getParent(), report);
        byte[] start = Files.readAllBytes(copy);
        assertTrue(start.length > 4 && start[0] == 0x0A && start[1] == 0x0D && start[2] == 0x0D && start[3] == 0x0A,
                "a pcapng file (section header block first): " + copy);
    }

    @Test
    void aFailingCommandFailsTheVerdict() throws Exception {
        Verdict verdict = capture("no-such-suite");
        assertFalse(verdict.passed(), verdict.report());
        assertTrue(verdict.exitCode() != 0, verdict.report());
        assertTrue(verdict.report().contains("command exit code"), verdict.report());
    }

    private static int freePort() throws Exception {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }
}
