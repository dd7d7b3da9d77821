package io.extsock.testkit.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Turns the {@code iwarp_mpa} and {@code iwarp_ddp_rdmap} layers of a dissected packet into
 * {@link MpaSetupFrame}s and {@link Fpdu}s. Each {@code iwarp_ddp_rdmap} layer belongs to the
 * {@code iwarp_mpa} layer just before it.
 */
final class PduDecoder {

    private static final Pattern NOT_HEX = Pattern.compile("[^0-9a-fA-F]");

    private PduDecoder() {
    }

    static List<IwarpPdu> decode(DissectedPacket packet, Direction direction) {
        List<IwarpPdu> pdus = new ArrayList<>();
        List<PdmlLayer> layers = packet.layers;
        for (int i = 0; i < layers.size(); i++) {
            PdmlLayer mpa = layers.get(i);
            if (!mpa.name.equals("iwarp_mpa")) {
                continue;
            }
            if (mpa.has("iwarp_mpa.req") || mpa.has("iwarp_mpa.rep")) {
                pdus.add(setup(packet, direction, mpa));
            } else if (mpa.has("iwarp_mpa.fpdu")) {
                PdmlLayer ddp = i + 1 < layers.size() && layers.get(i + 1).name.equals("iwarp_ddp_rdmap")
                        ? layers.get(i + 1) : null;
                pdus.add(fpdu(packet, direction, mpa, ddp));
            }
        }
        return pdus;
    }

    private static MpaSetupFrame setup(DissectedPacket packet, Direction direction, PdmlLayer mpa) {
        PdmlField data = mpa.first("iwarp_mpa.privatedata");
        String privateData = data == null ? "" : NOT_HEX.matcher(data.value()).replaceAll("").toLowerCase();
        // Wireshark's private-data-too-long error sits outside the iwarp_mpa layer.
        boolean tooLong = packet.hasField("iwarp_mpa.bad_length");
        return new MpaSetupFrame(packet.frame, packet.stream, direction, mpa.has("iwarp_mpa.rep"),
                (int) mpa.number("iwarp_mpa.rev", -1), mpa.number("iwarp_mpa.marker_flag", 0) != 0,
                mpa.number("iwarp_mpa.crc_flag", 0) != 0, mpa.number("iwarp_mpa.rej_flag", 0) != 0,
                (int) mpa.number("iwarp_mpa.res", 0), (int) mpa.number("iwarp_mpa.pdlength", 0), privateData,
                tooLong, mpa.size);
    }

    private static Fpdu fpdu(DissectedPacket packet, Direction direction, PdmlLayer mpa, PdmlLayer ddp) {
        int ulpduLength = (int) mpa.number("iwarp_mpa.ulpdulength", -1);
        PdmlField lengthField = mpa.first("iwarp_mpa.ulpdulength");
        int lengthAt = lengthField == null ? 0 : lengthField.pos();
        CrcStatus crc;
        long crcField;
        int crcAt;
        PdmlField checked = mpa.first("iwarp_mpa.crc_check");
        PdmlField unchecked = mpa.first("iwarp_mpa.crc");
        if (checked != null) {
            // The verdict is only in the display text: "CRC check: 0x... (Good CRC32)".
            crc = checked.showname().contains("Good CRC32") ? CrcStatus.GOOD : CrcStatus.BAD;
            crcField = number(checked);
            crcAt = checked.pos();
        } else if (unchecked != null) {
            crc = CrcStatus.NOT_NEGOTIATED;
            crcField = number(unchecked);
            crcAt = unchecked.pos();
        } else {
            crc = CrcStatus.MISSING;
            crcField = 0;
            crcAt = -1;
        }
        List<PdmlField> pointers = mpa.all("iwarp_mpa.marker_fpduptr");
        List<PdmlField> reserveds = mpa.all("iwarp_mpa.marker_res");
        // A marker is "reserved(16) | FPDUPTR(16)"; a leading one sits right before the length field.
        boolean leading = pointers.stream().anyMatch(p -> p.pos() - 2 == lengthAt - 4);
        int start = leading ? lengthAt - 4 : lengthAt;
        List<Marker> markers = new ArrayList<>();
        boolean padHidden = false;
        for (int m = 0; m < pointers.size(); m++) {
            PdmlField pointer = pointers.get(m);
            int reserved = m < reserveds.size() ? (int) number(reserveds.get(m)) : 0;
            markers.add(new Marker(reserved, (int) number(pointer), pointer.pos() - 2 - start));
            padHidden |= crcAt >= 0 && pointer.pos() + 2 == crcAt;
        }
        PdmlField padField = mpa.first("iwarp_mpa.pad");
        String pad = padField == null ? "" : NOT_HEX.matcher(padField.value()).replaceAll("").toLowerCase();
        DdpRdmapHeader header = ddp == null ? null : header(ddp);
        return new Fpdu(packet.frame, packet.stream, direction, ulpduLength, pad, crc, crcField, List.copyOf(markers),
                header, header == null ? 0 : payloadLength(header, ulpduLength), mpa.size, false, padHidden);
    }

    private static int payloadLength(DdpRdmapHeader header, int ulpduLength) {
        return switch (header.opcode()) {
            case READ_REQUEST -> ulpduLength - header.length() - 28;
            case TERMINATE -> 0;  // what follows is copied headers, not payload
            default -> ulpduLength - header.length();
        };
    }

    private static DdpRdmapHeader header(PdmlLayer ddp) {
        boolean tagged = ddp.number("iwarp_ddp.tagged_flag", 0) != 0;
        String[] required = tagged ? new String[] {"iwarp_ddp.stag", "iwarp_ddp.tagged_offset"}
                : new String[] {"iwarp_ddp.qn", "iwarp_ddp.msn", "iwarp_ddp.mo"};
        boolean complete = ddp.has("iwarp_rdma.opcode") && ddp.has("iwarp_ddp.dv");
        for (String field : required) {
            complete &= ddp.has(field);
        }
        String rsvdUlp = "";
        PdmlField ulp = ddp.first("iwarp_ddp.rsvdulp");
        if (!tagged && ulp != null) {
            String hex = NOT_HEX.matcher(ulp.value()).replaceAll("").toLowerCase();
            rsvdUlp = hex.length() > 2 ? hex.substring(2) : "";  // the first octet is RDMAP's control byte
        }
        Long invalidate = ddp.has("iwarp_rdma.inval_stag") ? ddp.number("iwarp_rdma.inval_stag", 0) : null;
        ReadRequestFields read = null;
        if (ddp.has("iwarp_rdma.rr")) {
            read = new ReadRequestFields(ddp.number("iwarp_rdma.sinkstag", -1), ddp.number("iwarp_rdma.sinkto", -1),
                    ddp.number("iwarp_rdma.rdmardsz", -1), ddp.number("iwarp_rdma.srcstag", -1),
                    sourceOffset(ddp));
        }
        TerminateFields terminate = null;
        if (ddp.has("iwarp_rdma.terminate") || ddp.has("iwarp_rdma.term_layer")) {
            PdmlField type = firstOf(ddp, "iwarp_rdma.term_etype_rdma", "iwarp_rdma.term_etype_ddp",
                    "iwarp_rdma.term_etype_llp", "iwarp_rdma.term_etype");
            PdmlField code = firstOf(ddp, "iwarp_rdma.term_errcode_rdma", "iwarp_rdma.term_errcode_ddp_tagged",
                    "iwarp_rdma.term_errcode_ddp_untagged", "iwarp_rdma.term_errcode_llp", "iwarp_rdma.term_errcode");
            String text = code == null ? "" : code.showname().substring(code.showname().indexOf(": ") + 2);
            terminate = new TerminateFields((int) ddp.number("iwarp_rdma.term_layer", -1),
                    type == null ? -1 : (int) number(type), code == null ? -1 : (int) number(code), text,
                    ddp.number("iwarp_rdma.term_hdrct_m", 0) != 0, ddp.number("iwarp_rdma.hdrct_d", 0) != 0,
                    ddp.number("iwarp_rdma.hdrct_r", 0) != 0);
        }
        return new DdpRdmapHeader(tagged, ddp.number("iwarp_ddp.last_flag", 0) != 0,
                (int) ddp.number("iwarp_ddp.rsvd", 0), (int) ddp.number("iwarp_ddp.dv", -1),
                (int) ddp.number("iwarp_rdma.version", -1), (int) ddp.number("iwarp_rdma.rsv", 0),
                (int) ddp.number("iwarp_rdma.opcode", -1), ddp.number("iwarp_ddp.stag", -1),
                ddp.number("iwarp_ddp.tagged_offset", -1), ddp.number("iwarp_ddp.qn", -1),
                ddp.number("iwarp_ddp.msn", -1), ddp.number("iwarp_ddp.mo", -1), rsvdUlp, invalidate, read,
                terminate, complete);
    }

    /** Some Wireshark versions show the source TO as raw octets rather than a number. */
    private static long sourceOffset(PdmlLayer ddp) {
        PdmlField field = ddp.first("iwarp_rdma.srcto");
        if (field == null) {
            return -1;
        }
        try {
            return field.number();
        } catch (NumberFormatException rawOctets) {
            return Long.parseUnsignedLong(NOT_HEX.matcher(field.value()).replaceAll(""), 16);
        }
    }

    private static PdmlField firstOf(PdmlLayer layer, String... names) {
        for (String name : names) {
            PdmlField field = layer.first(name);
            if (field != null) {
                return field;
            }
        }
        return null;
    }

    private static long number(PdmlField field) {
        try {
            return field.number();
        } catch (NumberFormatException notShownAsNumber) {
            String hex = NOT_HEX.matcher(field.value()).replaceAll("");
            return hex.isEmpty() ? 0 : Long.parseUnsignedLong(hex, 16);
        }
    }

}
