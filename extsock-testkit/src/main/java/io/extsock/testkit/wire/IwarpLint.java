package io.extsock.testkit.wire;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Our own strict checks of one TCP stream's decoded PDUs: what Wireshark 4.0 displays but does
 * not judge. Each breach is a {@link Finding.Kind#LINT} finding, and every one fails the
 * capture. Things worth knowing but not wrong (a Read Request the capture does not see
 * answered, a rejected connection) are notes.
 *
 * <p>Runs after the RTR of RFC 6581 has been recognized ({@link Fpdu#readyToReceive()}).
 */
final class IwarpLint {

    /** Markers sit every 512 octets of a direction's stream (RFC 5044 section 4.3). */
    static final int MARKER_INTERVAL = 512;

    private final List<Finding> findings;
    private final List<String> notes;
    private MpaSetupFrame request;
    private MpaSetupFrame reply;
    private final Map<Direction, Sender> senders = new EnumMap<>(Direction.class);

    /** What one direction has sent so far. */
    private static final class Sender {
        /** Next MSN due per untagged queue; RFC 5041 starts each at 1. */
        final Map<Long, Long> nextMsn = new HashMap<>();
        /** Untagged messages begun but not ended (no L yet), per queue. */
        final Map<Long, long[]> openUntagged = new HashMap<>();  // {msn, next MO, opcode}
        /** Tagged messages begun but not ended, per opcode: {STag, next TO}. */
        final Map<RdmapOpcode, long[]> openTagged = new EnumMap<>(RdmapOpcode.class);
        /** Read Requests this direction's Read Responses must answer, oldest first. */
        final Deque<OutstandingRead> readsToAnswer = new ArrayDeque<>();
        /** Stream position (octets after the setup frame) of the next FPDU. */
        long position;
        int fpdus;
    }

    private static final class OutstandingRead {
        final Fpdu request;
        final ReadRequestFields fields;
        long delivered;

        OutstandingRead(Fpdu request, ReadRequestFields fields) {
            this.request = request;
            this.fields = fields;
        }
    }

    IwarpLint(List<Finding> findings, List<String> notes) {
        this.findings = findings;
        this.notes = notes;
    }

    void check(List<IwarpPdu> stream) {
        for (IwarpPdu pdu : stream) {
            if (pdu instanceof MpaSetupFrame setup) {
                setup(setup);
            } else if (pdu instanceof Fpdu fpdu) {
                fpdu(fpdu);
            }
        }
        for (Map.Entry<Direction, Sender> sender : senders.entrySet()) {
            for (OutstandingRead read : sender.getValue().readsToAnswer) {
                notes.add("frame " + read.request.frame() + " stream " + read.request.stream() + " "
                        + read.request.direction() + ": Read Request not (fully) answered in the capture");
            }
        }
    }

    private void lint(IwarpPdu pdu, String message) {
        findings.add(Finding.at(Finding.Kind.LINT, pdu, message));
    }

    private void setup(MpaSetupFrame setup) {
        if (setup.revision() != 1 && setup.revision() != 2) {
            lint(setup, "MPA revision " + setup.revision() + " (RFC 5044 defines 1, RFC 6581 2)");
        }
        int allowed = setup.revision() == 2 ? MpaSetupFrame.ENHANCED_BIT : 0;
        if ((setup.reserved() & ~allowed) != 0) {
            lint(setup, String.format("MPA reserved flag bits 0x%02x set", setup.reserved() & ~allowed));
        }
        if ((setup.reserved() & MpaSetupFrame.ENHANCED_BIT) != 0 && setup.privateDataLength() < 4) {
            lint(setup, "H (RFC 6581 enhanced setup) set but private data shorter than IRD and ORD (4 octets)");
        }
        if (setup.privateDataTooLong() || setup.privateDataLength() > 512) {
            lint(setup, "private data length over 512 (RFC 5044 section 7.1.1)");
        }
        if (setup.request()) {
            if (request != null) {
                lint(setup, "a second MPA Request in the stream");
            }
            request = setup;
            if (setup.reject()) {
                lint(setup, "R (reject) set in an MPA Request");
            }
            if (setup.direction() != Direction.INITIATOR_TO_RESPONDER) {
                lint(setup, "MPA Request not from the initiator");
            }
            return;
        }
        if (reply != null) {
            lint(setup, "a second MPA Reply in the stream");
        }
        reply = setup;
        if (request == null) {
            lint(setup, "MPA Reply without an MPA Request before it");
            return;
        }
        if (setup.direction() != Direction.RESPONDER_TO_INITIATOR) {
            lint(setup, "MPA Reply not from the responder");
        }
        if (setup.revision() > request.revision()) {
            lint(setup, "Reply revision " + setup.revision() + " above the Request's " + request.revision());
        }
        if (request.enhanced() != setup.enhanced() && !setup.reject()) {
            lint(setup, "enhanced setup (RFC 6581) in only one of Request and Reply");
        }
        if (request.markers() != setup.markers() && !setup.reject()) {
            // RFC 5044 lets each side ask for markers on what it receives; Wireshark 4.0 then
            // expects them both ways, so one-sided markers cannot be judged here.
            lint(setup, "markers asked for by one side only (Request M=" + (request.markers() ? 1 : 0) + ", Reply M="
                    + (setup.markers() ? 1 : 0) + "): Wireshark cannot check that");
        }
        if (setup.reject()) {
            notes.add("frame " + setup.frame() + " stream " + setup.stream() + ": connection rejected by the responder");
        }
    }

    private boolean crcNegotiated() {
        return request != null && reply != null && (request.crc() || reply.crc());
    }

    private boolean markersNegotiated() {
        return request != null && reply != null && (request.markers() || reply.markers());
    }

    private void fpdu(Fpdu fpdu) {
        if (request == null || reply == null) {
            lint(fpdu, "FPDU before the MPA handshake finished");
        } else if (reply.reject()) {
            lint(fpdu, "FPDU on a connection the responder rejected");
        }
        Sender sender = senders.computeIfAbsent(fpdu.direction(), d -> new Sender());
        Sender initiator = senders.get(Direction.INITIATOR_TO_RESPONDER);
        if (fpdu.direction() == Direction.RESPONDER_TO_INITIATOR && (initiator == null || initiator.fpdus == 0)) {
            // RFC 5044 section 7.1: the initiator's first FPDU (RFC 6581 section 4: or its RTR) comes first.
            lint(fpdu, "responder sent an FPDU before the initiator's first FPDU");
        }
        framing(fpdu, sender);
        sender.fpdus++;
        DdpRdmapHeader h = fpdu.header();
        if (h == null) {
            lint(fpdu, "FPDU without a decodable DDP header (ULPDU " + fpdu.ulpduLength() + " octets)");
            return;
        }
        if (!h.complete()) {
            lint(fpdu, "DDP/RDMAP header incomplete (ULPDU " + fpdu.ulpduLength() + " octets)");
            return;
        }
        headerFields(fpdu, h);
        if (h.tagged()) {
            tagged(fpdu, h, sender);
        } else {
            untagged(fpdu, h, sender);
        }
    }

    /** MPA: CRC as negotiated, pad, markers where they belong with the right FPDUPTR. */
    private void framing(Fpdu fpdu, Sender sender) {
        if (crcNegotiated() && fpdu.crc() == CrcStatus.NOT_NEGOTIATED) {
            lint(fpdu, "CRC was negotiated but Wireshark did not check it");
        }
        if (fpdu.crc() == CrcStatus.MISSING) {
            lint(fpdu, "FPDU without a CRC field");
        }
        if (fpdu.crc() == CrcStatus.NOT_NEGOTIATED && fpdu.crcField() != 0) {
            lint(fpdu, String.format("CRC not negotiated, yet the CRC field is 0x%08x, not 0", fpdu.crcField()));
        }
        if (!fpdu.pad().isEmpty() && !fpdu.pad().chars().allMatch(c -> c == '0') && !fpdu.padHidden()) {
            lint(fpdu, "non-zero pad octets " + fpdu.pad());
        }
        int padLength = (4 - (2 + Math.max(fpdu.ulpduLength(), 0)) % 4) % 4;
        int expectedOctets = 2 + fpdu.ulpduLength() + padLength + 4 + 4 * fpdu.markers().size();
        if (fpdu.octets() != expectedOctets) {
            lint(fpdu, "FPDU occupies " + fpdu.octets() + " octets, its length field and markers make "
                    + expectedOctets);
        }
        long start = sender.position;
        sender.position += fpdu.octets();
        if (!markersNegotiated()) {
            if (!fpdu.markers().isEmpty()) {
                lint(fpdu, "markers in an FPDU although none were negotiated");
            }
            return;
        }
        long due = (start + fpdu.octets() + MARKER_INTERVAL - 1) / MARKER_INTERVAL
                - (start + MARKER_INTERVAL - 1) / MARKER_INTERVAL;
        if (fpdu.markers().size() != due) {
            lint(fpdu, "FPDU at stream octet " + start + " (" + fpdu.octets() + " octets) carries "
                    + fpdu.markers().size() + " marker(s), " + due + " due at every " + MARKER_INTERVAL + " octets");
        }
        boolean leading = !fpdu.markers().isEmpty() && fpdu.markers().get(0).offset() == 0;
        for (Marker marker : fpdu.markers()) {
            if ((start + marker.offset()) % MARKER_INTERVAL != 0) {
                lint(fpdu, "marker at stream octet " + (start + marker.offset()) + ", not a multiple of "
                        + MARKER_INTERVAL);
            }
            // FPDUPTR: back from the marker to the FPDU's length field; 0 for a leading marker.
            int lengthFieldAt = leading ? 4 : 0;
            int expected = marker.offset() < lengthFieldAt ? 0 : marker.offset() - lengthFieldAt;
            if (marker.fpduPointer() != expected) {
                lint(fpdu, "marker at FPDU offset " + marker.offset() + " has FPDUPTR " + marker.fpduPointer()
                        + ", expected " + expected);
            }
            if (marker.reserved() != 0) {
                lint(fpdu, String.format("marker reserved field 0x%04x, not 0", marker.reserved()));
            }
        }
    }

    private void headerFields(Fpdu fpdu, DdpRdmapHeader h) {
        RdmapOpcode opcode = h.opcode();
        if (h.ddpVersion() != 1) {
            lint(fpdu, "DDP version " + h.ddpVersion() + ", not 1");
        }
        if (h.rdmapVersion() != 1) {
            lint(fpdu, "RDMAP version " + h.rdmapVersion() + ", not 1");
        }
        if (h.ddpReserved() != 0) {
            lint(fpdu, "DDP reserved bits 0x" + Integer.toHexString(h.ddpReserved()) + " set");
        }
        if (h.rdmapReserved() != 0) {
            lint(fpdu, "RDMAP reserved bits 0x" + Integer.toHexString(h.rdmapReserved()) + " set");
        }
        if (!opcode.inRfc5040()) {
            lint(fpdu, "RDMAP opcode 0x" + Integer.toHexString(h.opcodeCode()) + " (" + opcode.shortName()
                    + ") is not in RFC 5040");
            return;
        }
        if (opcode.tagged() != h.tagged()) {
            lint(fpdu, opcode.shortName() + " must use the " + (opcode.tagged() ? "tagged" : "untagged")
                    + " buffer model");
        }
        if (!h.tagged() && opcode.queue() >= 0 && h.queue() != opcode.queue()) {
            lint(fpdu, opcode.shortName() + " on QN " + h.queue() + ", RFC 5040 puts it on QN " + opcode.queue());
        }
        boolean invalidates = opcode == RdmapOpcode.SEND_WITH_INVALIDATE
                || opcode == RdmapOpcode.SEND_WITH_SOLICITED_EVENT_AND_INVALIDATE;
        if (!h.tagged() && !invalidates && !h.untaggedRsvdUlp().chars().allMatch(c -> c == '0')) {
            lint(fpdu, "RsvdULP octets " + h.untaggedRsvdUlp() + " not zero for " + opcode.shortName());
        }
        if (opcode == RdmapOpcode.READ_REQUEST || opcode == RdmapOpcode.TERMINATE) {
            if (!h.last() || h.messageOffset() != 0) {
                lint(fpdu, opcode.shortName() + " must be a single segment (L=1, MO=0)");
            }
        }
        if (opcode == RdmapOpcode.READ_REQUEST && fpdu.ulpduLength() != h.length() + 28) {
            lint(fpdu, "Read Request ULPDU of " + fpdu.ulpduLength() + " octets, RFC 5040 makes it "
                    + (h.length() + 28));
        }
    }

    private void untagged(Fpdu fpdu, DdpRdmapHeader h, Sender sender) {
        long queue = h.queue();
        long[] open = sender.openUntagged.get(queue);
        if (open != null) {
            if (h.messageSequence() != open[0] || h.messageOffset() != open[1] || h.opcodeCode() != open[2]) {
                lint(fpdu, String.format("QN %d: expected the next segment of MSN %d at MO %d (%s), got MSN %d MO %d"
                        + " (%s)", queue, open[0], open[1], RdmapOpcode.of((int) open[2]).shortName(),
                        h.messageSequence(), h.messageOffset(), h.opcode().shortName()));
            }
        } else {
            long expected = sender.nextMsn.getOrDefault(queue, 1L);
            if (h.messageSequence() != expected || h.messageOffset() != 0) {
                lint(fpdu, String.format("QN %d: expected a new message with MSN %d at MO 0, got MSN %d MO %d",
                        queue, expected, h.messageSequence(), h.messageOffset()));
            }
        }
        if (h.last()) {
            sender.openUntagged.remove(queue);
            sender.nextMsn.put(queue, (h.messageSequence() + 1) & 0xFFFFFFFFL);
        } else {
            sender.openUntagged.put(queue, new long[] {h.messageSequence(), h.messageOffset() + fpdu.payloadLength(),
                    h.opcodeCode()});
        }
        if (h.opcode() == RdmapOpcode.READ_REQUEST && h.readRequest() != null) {
            // The peer answers it: its Read Response goes the other way.
            senders.computeIfAbsent(fpdu.direction().reverse(), d -> new Sender()).readsToAnswer
                    .add(new OutstandingRead(fpdu, h.readRequest()));
        }
    }

    private void tagged(Fpdu fpdu, DdpRdmapHeader h, Sender sender) {
        RdmapOpcode opcode = h.opcode();
        long[] open = sender.openTagged.get(opcode);
        if (open != null && (h.stag() != open[0] || h.taggedOffset() != open[1])) {
            lint(fpdu, String.format("%s continues: expected STag 0x%08x TO 0x%x, got STag 0x%08x TO 0x%x",
                    opcode.shortName(), open[0], open[1], h.stag(), h.taggedOffset()));
        }
        if (h.last()) {
            sender.openTagged.remove(opcode);
        } else {
            sender.openTagged.put(opcode, new long[] {h.stag(), h.taggedOffset() + fpdu.payloadLength()});
        }
        if (opcode != RdmapOpcode.READ_RESPONSE) {
            return;
        }
        OutstandingRead read = sender.readsToAnswer.peek();
        if (read == null) {
            lint(fpdu, "Read Response without an outstanding Read Request");
            return;
        }
        long expectedOffset = read.fields.sinkTaggedOffset() + read.delivered;
        if (h.stag() != read.fields.sinkStag() || h.taggedOffset() != expectedOffset) {
            lint(fpdu, String.format("Read Response to STag 0x%08x TO 0x%x, the Read Request of frame %d wants sink"
                    + " STag 0x%08x TO 0x%x", h.stag(), h.taggedOffset(), read.request.frame(), read.fields.sinkStag(),
                    expectedOffset));
        }
        read.delivered += fpdu.payloadLength();
        if (h.last()) {
            if (read.delivered != read.fields.size()) {
                lint(fpdu, "Read Response carried " + read.delivered + " octets, the Read Request of frame "
                        + read.request.frame() + " asked for " + read.fields.size());
            }
            sender.readsToAnswer.poll();
        } else if (read.delivered >= read.fields.size()) {
            lint(fpdu, "Read Response reached the requested " + read.fields.size() + " octets without L");
        }
    }

    /**
     * Marks the RFC 6581 RTR: after an enhanced setup in which both sides set P2P, the
     * initiator's first FPDU must be a zero-length Send, Write or Read Request of a kind the
     * Request offered (and the Reply, if it names kinds, chose).
     */
    static List<IwarpPdu> recognizeReadyToReceive(List<IwarpPdu> stream, List<Finding> findings) {
        MpaSetupFrame request = null;
        MpaSetupFrame reply = null;
        List<IwarpPdu> marked = new ArrayList<>(stream);
        for (int i = 0; i < marked.size(); i++) {
            IwarpPdu pdu = marked.get(i);
            if (pdu instanceof MpaSetupFrame setup) {
                if (setup.request()) {
                    request = setup;
                } else {
                    reply = setup;
                }
                continue;
            }
            if (!(pdu instanceof Fpdu fpdu) || fpdu.direction() != Direction.INITIATOR_TO_RESPONDER) {
                continue;
            }
            if (request == null || reply == null || !request.enhanced() || !reply.enhanced()
                    || !request.peerToPeer() || !reply.peerToPeer()) {
                return marked;
            }
            boolean replyNames = reply.sendRtr() || reply.writeRtr() || reply.readRtr();
            boolean send = fpdu.is(RdmapOpcode.SEND) && request.sendRtr() && (!replyNames || reply.sendRtr());
            boolean write = fpdu.is(RdmapOpcode.WRITE) && request.writeRtr() && (!replyNames || reply.writeRtr());
            boolean read = fpdu.is(RdmapOpcode.READ_REQUEST) && request.readRtr() && (!replyNames || reply.readRtr())
                    && fpdu.header().readRequest() != null && fpdu.header().readRequest().size() == 0;
            if ((send || write || read) && fpdu.payloadLength() == 0 && fpdu.header().last()) {
                marked.set(i, fpdu.withReadyToReceive());
            } else {
                findings.add(Finding.at(Finding.Kind.LINT, fpdu, "peer-to-peer enhanced setup, but the initiator's"
                        + " first FPDU is not a zero-length RTR of a kind the Request offered"));
            }
            return marked;
        }
        return marked;
    }
}
