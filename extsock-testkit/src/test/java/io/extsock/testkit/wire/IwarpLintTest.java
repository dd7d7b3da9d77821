package io.extsock.testkit.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The strict lint on PDUs made up here: what conforms raises nothing, each breach its finding. */
class IwarpLintTest {

    private static final Direction OUT = Direction.INITIATOR_TO_RESPONDER;
    private static final Direction BACK = Direction.RESPONDER_TO_INITIATOR;
    private int frame;

    private MpaSetupFrame setup(boolean reply, int flags, int revision, String privateData) {
        return new MpaSetupFrame(++frame, 0, reply ? BACK : OUT, reply, revision, (flags & 0x80) != 0,
                (flags & 0x40) != 0, (flags & 0x20) != 0, flags & 0x1F, privateData.length() / 2, privateData,
                false, 20 + privateData.length() / 2);
    }

    private Fpdu fpdu(Direction direction, DdpRdmapHeader header, int payload, List<Marker> markers, String pad) {
        int ulpdu = header.length() + payload + (header.opcode() == RdmapOpcode.READ_REQUEST ? 28 : 0)
                + (header.opcode() == RdmapOpcode.TERMINATE ? 4 : 0);
        int padLength = (4 - (2 + ulpdu) % 4) % 4;
        return new Fpdu(++frame, 0, direction, ulpdu, pad.isEmpty() ? "00".repeat(padLength) : pad, CrcStatus.GOOD,
                0x12345678L, markers, header, header.opcode() == RdmapOpcode.TERMINATE ? 0 : payload,
                2 + ulpdu + padLength + 4 + 4 * markers.size(), false, false);
    }

    private Fpdu fpdu(Direction direction, DdpRdmapHeader header, int payload) {
        return fpdu(direction, header, payload, List.of(), "");
    }

    private static DdpRdmapHeader untagged(RdmapOpcode opcode, boolean last, long queue, long msn, long mo) {
        return new DdpRdmapHeader(false, last, 0, 1, 1, 0, opcode.ordinal(), -1, -1, queue, msn, mo, "00000000", null,
                null, null, true);
    }

    private static DdpRdmapHeader send(long msn, long mo, boolean last) {
        return untagged(RdmapOpcode.SEND, last, 0, msn, mo);
    }

    private static DdpRdmapHeader tagged(RdmapOpcode opcode, boolean last, long stag, long to) {
        return new DdpRdmapHeader(true, last, 0, 1, 1, 0, opcode.ordinal(), stag, to, -1, -1, -1, "", null, null, null,
                true);
    }

    private static DdpRdmapHeader readRequest(long msn, long sinkStag, long sinkTo, long size) {
        return new DdpRdmapHeader(false, true, 0, 1, 1, 0, 1, -1, -1, 1, msn, 0, "00000000", null,
                new ReadRequestFields(sinkStag, sinkTo, size, 0x99, 0), null, true);
    }

    private List<Finding> lint(List<IwarpPdu> pdus) {
        List<Finding> findings = new ArrayList<>();
        List<IwarpPdu> marked = IwarpLint.recognizeReadyToReceive(pdus, findings);
        new IwarpLint(findings, new ArrayList<>()).check(marked);
        return findings;
    }

    private List<IwarpPdu> handshake(int flags) {
        return new ArrayList<>(List.of(setup(false, flags, 1, ""), setup(true, flags, 1, "")));
    }

    private static void assertOneFinding(List<Finding> findings, String fragment) {
        assertEquals(1, findings.size(), findings.toString());
        assertTrue(findings.get(0).message().contains(fragment), findings.toString());
        assertEquals(Finding.Kind.LINT, findings.get(0).kind());
    }

    @Test
    void aConformantConversationRaisesNothing() {
        List<IwarpPdu> pdus = handshake(0x40);
        pdus.add(fpdu(OUT, send(1, 0, false), 100));
        pdus.add(fpdu(OUT, send(1, 100, true), 50));
        pdus.add(fpdu(OUT, tagged(RdmapOpcode.WRITE, false, 7, 0x1000), 64));
        pdus.add(fpdu(OUT, send(2, 0, true), 0));  // a Send may slip between segments of a Write
        pdus.add(fpdu(OUT, tagged(RdmapOpcode.WRITE, true, 7, 0x1040), 64));
        pdus.add(fpdu(OUT, readRequest(1, 0xAB, 0x20, 300), 0));
        pdus.add(fpdu(BACK, send(1, 0, true), 3));
        pdus.add(fpdu(BACK, tagged(RdmapOpcode.READ_RESPONSE, false, 0xAB, 0x20), 200));
        pdus.add(fpdu(BACK, tagged(RdmapOpcode.READ_RESPONSE, true, 0xAB, 0x20 + 200), 100));
        pdus.add(fpdu(BACK, untagged(RdmapOpcode.TERMINATE, true, 2, 1, 0), 0));
        assertEquals(List.of(), lint(pdus));
    }

    @Test
    void anMsnGapIsFound() {
        List<IwarpPdu> pdus = handshake(0);
        pdus.add(fpdu(OUT, send(1, 0, true), 8));
        pdus.add(fpdu(OUT, send(3, 0, true), 8));
        assertOneFinding(lint(pdus), "MSN 2");
    }

    @Test
    void msnStartsAtOnePerQueueAndDirection() {
        List<IwarpPdu> pdus = handshake(0);
        pdus.add(fpdu(OUT, send(1, 0, true), 8));
        pdus.add(fpdu(BACK, send(0, 0, true), 8));
        assertOneFinding(lint(pdus), "MSN 1");
    }

    @Test
    void aMessageOffsetGapIsFound() {
        List<IwarpPdu> pdus = handshake(0);
        pdus.add(fpdu(OUT, send(1, 0, false), 20));
        pdus.add(fpdu(OUT, send(1, 24, true), 8));
        assertOneFinding(lint(pdus), "MO 20");
    }

    @Test
    void aTaggedOffsetGapIsFound() {
        List<IwarpPdu> pdus = handshake(0);
        pdus.add(fpdu(OUT, tagged(RdmapOpcode.WRITE, false, 7, 0), 20));
        pdus.add(fpdu(OUT, tagged(RdmapOpcode.WRITE, true, 7, 0x30), 8));
        assertOneFinding(lint(pdus), "TO 0x14");
    }

    @Test
    void aReadResponseMustMatchItsReadRequest() {
        List<IwarpPdu> pdus = handshake(0);
        pdus.add(fpdu(OUT, readRequest(1, 0xAB, 0, 100), 0));
        pdus.add(fpdu(BACK, tagged(RdmapOpcode.READ_RESPONSE, true, 0xAB, 0), 90));
        assertOneFinding(lint(pdus), "carried 90 octets");

        pdus = handshake(0);
        pdus.add(fpdu(OUT, readRequest(1, 0xAB, 0, 100), 0));
        pdus.add(fpdu(BACK, tagged(RdmapOpcode.READ_RESPONSE, true, 0xAC, 0), 100));
        assertOneFinding(lint(pdus), "wants sink STag 0x000000ab");

        pdus = handshake(0);
        pdus.add(fpdu(OUT, send(1, 0, true), 4));
        pdus.add(fpdu(BACK, tagged(RdmapOpcode.READ_RESPONSE, true, 0xAB, 0), 100));
        assertOneFinding(lint(pdus), "without an outstanding Read Request");
    }

    @Test
    void eachOpcodeHasItsQueue() {
        List<IwarpPdu> pdus = handshake(0);
        pdus.add(fpdu(OUT, untagged(RdmapOpcode.SEND, true, 1, 1, 0), 8));
        assertOneFinding(lint(pdus), "Send on QN 1");

        pdus = handshake(0);
        pdus.add(fpdu(OUT, send(1, 0, true), 8));
        pdus.add(fpdu(BACK, untagged(RdmapOpcode.TERMINATE, true, 0, 1, 0), 0));
        assertOneFinding(lint(pdus), "Terminate on QN 0");
    }

    @Test
    void versionsAndReservedBitsAreChecked() {
        List<IwarpPdu> pdus = handshake(0);
        pdus.add(fpdu(OUT, new DdpRdmapHeader(false, true, 1, 2, 2, 1, 3, -1, -1, 0, 1, 0, "00000001", null, null, null,
                true), 8));
        List<Finding> findings = lint(pdus);
        for (String fragment : List.of("DDP version 2", "RDMAP version 2", "DDP reserved", "RDMAP reserved",
                "RsvdULP")) {
            assertTrue(findings.stream().anyMatch(f -> f.message().contains(fragment)), fragment + ": " + findings);
        }
    }

    @Test
    void padMustBeZeroAndRfc7306OpcodesAreFlagged() {
        List<IwarpPdu> pdus = handshake(0);
        pdus.add(fpdu(OUT, send(1, 0, true), 5, List.of(), "aaaaaa"));
        assertOneFinding(lint(pdus), "non-zero pad");

        pdus = handshake(0);
        pdus.add(fpdu(OUT, untagged(RdmapOpcode.ATOMIC_REQUEST, true, 1, 1, 0), 36));
        assertOneFinding(lint(pdus), "not in RFC 5040");
    }

    @Test
    void markersMustSitEvery512OctetsWithTheRightPointer() {
        List<IwarpPdu> good = handshake(0x80);
        // 1000-octet Send from stream octet 0: a leading marker (offset 0) and one at 512.
        good.add(fpdu(OUT, send(1, 0, true), 1000 - 18 + 2, List.of(new Marker(0, 0, 0), new Marker(0, 508, 512)),
                ""));
        assertEquals(List.of(), lint(good));

        List<IwarpPdu> wrong = handshake(0x80);
        wrong.add(fpdu(OUT, send(1, 0, true), 1000 - 18 + 2, List.of(new Marker(0, 0, 0), new Marker(0, 512, 512)),
                ""));
        assertOneFinding(lint(wrong), "FPDUPTR 512, expected 508");

        List<IwarpPdu> missing = handshake(0x80);
        missing.add(fpdu(OUT, send(1, 0, true), 1000 - 18 + 2, List.of(new Marker(0, 0, 0)), ""));
        assertTrue(lint(missing).stream().anyMatch(f -> f.message().contains("2 due")), lint(missing).toString());
    }

    @Test
    void theRfc6581ReadyToReceiveIsRecognized() {
        List<IwarpPdu> pdus = new ArrayList<>(List.of(setup(false, 0x50, 2, "80108010"), setup(true, 0x50, 2, "80088008")));
        pdus.add(fpdu(OUT, tagged(RdmapOpcode.WRITE, true, 0, 0), 0));
        pdus.add(fpdu(BACK, send(1, 0, true), 10));
        List<Finding> findings = new ArrayList<>();
        List<IwarpPdu> marked = IwarpLint.recognizeReadyToReceive(pdus, findings);
        assertEquals(List.of(), findings);
        assertTrue(((Fpdu) marked.get(2)).readyToReceive());
        assertEquals(List.of(), lint(pdus));

        List<IwarpPdu> noRtr = new ArrayList<>(pdus.subList(0, 2));
        noRtr.add(fpdu(OUT, send(1, 0, true), 10));
        assertOneFinding(lint(noRtr), "RTR");
    }

    @Test
    void theResponderWaitsForTheInitiatorsFirstFpdu() {
        List<IwarpPdu> pdus = handshake(0);
        pdus.add(fpdu(BACK, send(1, 0, true), 8));
        assertOneFinding(lint(pdus), "before the initiator's first FPDU");
    }
}
