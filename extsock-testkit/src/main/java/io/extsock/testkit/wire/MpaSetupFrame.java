package io.extsock.testkit.wire;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * An MPA Request or Reply (RFC 5044 section 7.1.1), with the RFC 6581 enhanced setup decoded,
 * which Wireshark 4.0 does not do: with revision 2 and the H bit the private data starts with
 * the IRD and ORD words and their peer-to-peer and ready-to-receive (RTR) bits.
 *
 * @param reserved the five low flag bits, H (0x10) included
 * @param privateData the private data octets, hex; empty when there are none
 * @param privateDataTooLong Wireshark's own error: a length over 512
 */
public record MpaSetupFrame(int frame, int stream, Direction direction, boolean reply, int revision,
                            boolean markers, boolean crc, boolean reject, int reserved, int privateDataLength,
                            String privateData, boolean privateDataTooLong, int octets) implements IwarpPdu {

    /** RFC 6581's H bit, among the bits RFC 5044 reserved. */
    public static final int ENHANCED_BIT = 0x10;

    public boolean request() {
        return !reply;
    }

    /** RFC 6581 enhanced setup: revision 2 with H set and room for IRD and ORD. */
    public boolean enhanced() {
        return revision == 2 && (reserved & ENHANCED_BIT) != 0 && privateData.length() >= 8;
    }

    private int word(int index) {
        return enhanced() ? Integer.parseInt(privateData.substring(index * 4, index * 4 + 4), 16) : 0;
    }

    public int ird() {
        return word(0) & 0x3FFF;
    }

    public int ord() {
        return word(1) & 0x3FFF;
    }

    public boolean peerToPeer() {
        return (word(0) & 0x8000) != 0;
    }

    /** RTR as a zero-length Send (B bit of the IRD word). */
    public boolean sendRtr() {
        return (word(0) & 0x4000) != 0;
    }

    /** RTR as a zero-length RDMA Write (C bit of the ORD word). */
    public boolean writeRtr() {
        return (word(1) & 0x8000) != 0;
    }

    /** RTR as a zero-length RDMA Read (D bit of the ORD word). */
    public boolean readRtr() {
        return (word(1) & 0x4000) != 0;
    }

    public byte[] privateDataBytes() {
        return HexFormat.of().parseHex(privateData);
    }

    /** One line for the report. */
    public String describe() {
        StringBuilder line = new StringBuilder(String.format("%s rev=%d M=%d C=%d R=%d res=0x%02x pd_len=%d",
                reply ? "MPA Reply  " : "MPA Request", revision, markers ? 1 : 0, crc ? 1 : 0, reject ? 1 : 0,
                reserved, privateDataLength));
        if (enhanced()) {
            List<String> bits = new ArrayList<>();
            if (peerToPeer()) {
                bits.add("P2P");
            }
            if (sendRtr()) {
                bits.add("SendRTR");
            }
            if (writeRtr()) {
                bits.add("WriteRTR");
            }
            if (readRtr()) {
                bits.add("ReadRTR");
            }
            line.append(String.format(" IRD=%d ORD=%d %s", ird(), ord(), bits.isEmpty() ? "-" : String.join("+", bits)));
        }
        if (privateDataTooLong) {
            line.append(" [private data over 512]");
        }
        return line.toString();
    }
}
