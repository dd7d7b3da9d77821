package io.extsock.testkit.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PDML as tshark 4.0 writes it (trimmed to the fields the judge reads) through the reader and
 * the analysis, without tshark: decoding, directions, byte accounting, experts, malformed marks.
 */
class CaptureAnalysisTest {

    private static String packet(int frame, boolean fromClient, int tcpLength, String more) {
        String src = fromClient ? "40000" : "45044";
        String dst = fromClient ? "45044" : "40000";
        return "<packet>\n"
                + "  <proto name=\"geninfo\" pos=\"0\" size=\"100\"><field name=\"num\" pos=\"0\" show=\"" + frame
                + "\" size=\"100\"/></proto>\n"
                + "  <proto name=\"ip\" size=\"20\" pos=\"14\"><field name=\"ip.src\" show=\"127.0.0.1\"/>"
                + "<field name=\"ip.dst\" show=\"127.0.0.1\"/></proto>\n"
                + "  <proto name=\"tcp\" size=\"32\" pos=\"34\"><field name=\"tcp.srcport\" show=\"" + src + "\"/>"
                + "<field name=\"tcp.dstport\" show=\"" + dst + "\"/><field name=\"tcp.stream\" show=\"0\"/>"
                + "<field name=\"tcp.len\" show=\"" + tcpLength + "\"/>" + (more.contains("WINDOW") ? WINDOW_FULL : "")
                + "</proto>\n" + more.replace("WINDOW", "") + "</packet>\n";
    }

    private static final String WINDOW_FULL = "<field name=\"tcp.analysis\"><field name=\"_ws.expert\" showname=\"x\">"
            + "<field name=\"tcp.analysis.window_full\" show=\"\"/>"
            + "<field name=\"_ws.expert.message\" show=\"TCP window specified by the receiver is now completely full\"/>"
            + "<field name=\"_ws.expert.severity\" show=\"6291456\"/></field></field>";

    private static String setup(boolean reply, int size) {
        return "  <proto name=\"iwarp_mpa\" size=\"" + size + "\" pos=\"66\">"
                + "<field name=\"iwarp_mpa." + (reply ? "rep" : "req") + "\" show=\"\">"
                + "<field name=\"iwarp_mpa.marker_flag\" show=\"0\"/><field name=\"iwarp_mpa.crc_flag\" show=\"1\"/>"
                + "<field name=\"iwarp_mpa.rej_flag\" show=\"0\"/><field name=\"iwarp_mpa.res\" show=\"0x00\"/>"
                + "<field name=\"iwarp_mpa.rev\" show=\"1\"/><field name=\"iwarp_mpa.pdlength\" show=\"0\"/>"
                + "</field></proto>\n";
    }

    /** A Send with 8 octets of payload: ULPDU 26, pad 0, 32 octets in all. */
    private static final String SEND = "  <proto name=\"iwarp_mpa\" size=\"32\" pos=\"66\">"
            + "<field name=\"iwarp_mpa.fpdu\" show=\"\"><field name=\"iwarp_mpa.ulpdulength\" pos=\"66\" show=\"26\"/>"
            + "<field name=\"iwarp_mpa.crc_check\" pos=\"94\" showname=\"CRC check: 0x1 (Good CRC32)\" show=\"0x00000001\""
            + " value=\"00000001\"/></field></proto>\n"
            + "  <proto name=\"iwarp_ddp_rdmap\" size=\"26\" pos=\"68\">"
            + "<field name=\"iwarp_ddp.tagged_flag\" show=\"0\"/><field name=\"iwarp_ddp.last_flag\" show=\"1\"/>"
            + "<field name=\"iwarp_ddp.rsvd\" show=\"0x00\"/><field name=\"iwarp_ddp.dv\" show=\"1\"/>"
            + "<field name=\"iwarp_ddp.rsvdulp\" show=\"43:00:00:00:00\" value=\"4300000000\"/>"
            + "<field name=\"iwarp_ddp.qn\" show=\"0\"/><field name=\"iwarp_ddp.msn\" show=\"1\"/>"
            + "<field name=\"iwarp_ddp.mo\" show=\"0\"/><field name=\"iwarp_rdma.version\" show=\"1\"/>"
            + "<field name=\"iwarp_rdma.rsv\" show=\"0x00\"/><field name=\"iwarp_rdma.opcode\" show=\"0x03\"/>"
            + "</proto>\n";

    private static final String MALFORMED = "  <proto name=\"_ws.malformed\" showname=\"[Malformed Packet: IWARP_DDP_RDMAP]\">"
            + "<field name=\"_ws.expert\"><field name=\"_ws.expert.message\" show=\"Malformed Packet (Exception occurred)\"/>"
            + "<field name=\"_ws.expert.severity\" show=\"8388608\"/></field>"
            + "<proto name=\"_ws.malformed\" showname=\"Malformed Packet\"/></proto>\n";

    private static CaptureAnalysis analyse(String... packets) throws Exception {
        String pdml = "<?xml version=\"1.0\"?>\n<pdml version=\"0\" creator=\"wireshark/4.0.17\">\n"
                + String.join("", packets) + "</pdml>\n";
        return CaptureAnalysis.of(PdmlReader.read(new ByteArrayInputStream(pdml.getBytes(StandardCharsets.UTF_8))),
                List.of());
    }

    @Test
    void aCleanConversationIsDecodedWithDirectionsAndPasses() throws Exception {
        CaptureAnalysis analysis = analyse(packet(1, true, 20, setup(false, 20)), packet(2, false, 20, setup(true, 20)),
                packet(3, true, 32, SEND + "WINDOW"));
        assertEquals(List.of(), analysis.findings);
        assertEquals(3, analysis.pdus.size());
        Fpdu send = (Fpdu) analysis.pdus.get(2);
        assertEquals(Direction.INITIATOR_TO_RESPONDER, send.direction());
        assertEquals(RdmapOpcode.SEND, send.opcode());
        assertEquals(CrcStatus.GOOD, send.crc());
        assertEquals(8, send.payloadLength());
        assertEquals(1, analysis.forgiven.size(), "TCP's window-full warning is forgiven");
    }

    @Test
    void payloadNoFrameAccountsForIsUndecoded() throws Exception {
        CaptureAnalysis analysis = analyse(packet(1, true, 20, setup(false, 20)), packet(2, false, 20, setup(true, 20)),
                packet(3, true, 40, SEND));
        assertEquals(1, analysis.findings.size(), analysis.findings.toString());
        assertEquals(Finding.Kind.UNDECODED, analysis.findings.get(0).kind());
        assertTrue(analysis.findings.get(0).message().startsWith("8 octet(s)"), analysis.findings.toString());
    }

    @Test
    void withoutTheRequestNothingIsDecoded() throws Exception {
        CaptureAnalysis analysis = analyse(packet(1, true, 32, ""));
        assertTrue(analysis.findings.stream().anyMatch(f -> f.kind() == Finding.Kind.NO_HANDSHAKE), analysis.findings.toString());
        assertTrue(analysis.findings.stream().anyMatch(f -> f.kind() == Finding.Kind.NO_IWARP), analysis.findings.toString());
    }

    @Test
    void aMalformedPacketIsOneFindingPlusItsExpertError() throws Exception {
        CaptureAnalysis analysis = analyse(packet(1, true, 20, setup(false, 20)), packet(2, false, 20, setup(true, 20)),
                packet(3, true, 32, SEND + MALFORMED));
        assertEquals(List.of(Finding.Kind.MALFORMED, Finding.Kind.EXPERT_ERROR),
                analysis.findings.stream().map(Finding::kind).toList(), analysis.findings.toString());
        assertEquals("[Malformed Packet: IWARP_DDP_RDMAP]", analysis.findings.get(0).message());
    }
}
