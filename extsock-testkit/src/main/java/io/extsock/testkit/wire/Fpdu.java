package io.extsock.testkit.wire;

import java.util.List;

/**
 * One MPA FPDU (RFC 5044 section 4) and the DDP segment in it.
 *
 * @param ulpduLength the FPDU's length field: the DDP segment only
 * @param pad the pad octets, hex
 * @param crcField the CRC field as Wireshark shows it (the four wire octets read big-endian)
 * @param header the DDP/RDMAP header, or null when it could not be decoded
 * @param payloadLength octets of ULP payload after the headers (Read Request and Terminate: 0)
 * @param readyToReceive this is the RFC 6581 RTR: the initiator's first FPDU after an enhanced
 *     setup that asked for one, a zero-length Send, Write or Read Request
 * @param padHidden Wireshark 4.0 shows the wrong octets as pad when a marker sits between pad
 *     and CRC, so the pad cannot be judged there
 */
public record Fpdu(int frame, int stream, Direction direction, int ulpduLength, String pad, CrcStatus crc,
                   long crcField, List<Marker> markers, DdpRdmapHeader header, int payloadLength, int octets,
                   boolean readyToReceive, boolean padHidden) implements IwarpPdu {

    public RdmapOpcode opcode() {
        return header == null ? RdmapOpcode.RESERVED : header.opcode();
    }

    public boolean is(RdmapOpcode opcode) {
        return header != null && header.opcode() == opcode;
    }

    Fpdu withReadyToReceive() {
        return new Fpdu(frame, stream, direction, ulpduLength, pad, crc, crcField, markers, header, payloadLength,
                octets, true, padHidden);
    }

    /** One line for the report. */
    public String describe() {
        if (header == null) {
            return String.format("FPDU (DDP header not decoded) ulpdu=%d crc=%s", ulpduLength, crc);
        }
        DdpRdmapHeader h = header;
        String where = h.tagged() ? String.format("stag=0x%08x to=0x%x", h.stag(), h.taggedOffset())
                : String.format("qn=%d msn=%d mo=%d", h.queue(), h.messageSequence(), h.messageOffset());
        StringBuilder line = new StringBuilder(String.format("FPDU %-10s %s%s %-30s ulpdu=%-5d pay=%-5d crc=%-4s mk=%d",
                h.opcode() == RdmapOpcode.RESERVED ? "op0x" + Integer.toHexString(h.opcodeCode()) : h.opcode().shortName(),
                h.tagged() ? "T" : "U", h.last() ? "L" : "-", where, ulpduLength, payloadLength, crcText(),
                markers.size()));
        if (readyToReceive) {
            line.append(" RTR");
        }
        if (h.invalidateStag() != null) {
            line.append(String.format(" inv_stag=0x%08x", h.invalidateStag()));
        }
        if (h.readRequest() != null) {
            ReadRequestFields r = h.readRequest();
            line.append(String.format(" sink=0x%08x/0x%x size=%d src=0x%08x/0x%x", r.sinkStag(), r.sinkTaggedOffset(),
                    r.size(), r.sourceStag(), r.sourceTaggedOffset()));
        }
        if (h.terminate() != null) {
            TerminateFields t = h.terminate();
            line.append(String.format(" layer=%d etype=%d ecode=0x%02x [%s] M=%d D=%d R=%d", t.layer(), t.errorType(),
                    t.errorCode(), t.errorText(), t.ddpSegmentLength() ? 1 : 0, t.ddpHeader() ? 1 : 0,
                    t.rdmapHeader() ? 1 : 0));
        }
        return line.toString();
    }

    private String crcText() {
        return switch (crc) {
            case GOOD -> "good";
            case BAD -> "BAD";
            case NOT_NEGOTIATED -> "off";
            case MISSING -> "none";
        };
    }
}
