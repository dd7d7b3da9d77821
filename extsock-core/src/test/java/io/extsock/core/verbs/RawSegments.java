package io.extsock.core.verbs;

import io.extsock.core.ddp.DdpConstants;
import io.extsock.core.ddp.DdpHeaderEncoder;
import io.extsock.core.mpa.FpduFramer;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Hand-built DDP segments (ULPDUs) and the FPDUs that carry them (RFC 5044 section 4: length,
 * ULPDU, pad, CRC32c; no markers), for feeding a queue pair what no well-behaved peer sends.
 * The RDMAP control octet is given raw (RV and opcode, RFC 5040 section 4.1), so that any
 * opcode can travel tagged or untagged, on any queue.
 */
final class RawSegments {

    static final int WRITE = 0x0;
    static final int READ_REQUEST = 0x1;
    static final int READ_RESPONSE = 0x2;
    static final int SEND = 0x3;
    static final int SEND_WITH_INVALIDATE = 0x4;
    static final int TERMINATE = 0x7;

    private RawSegments() {
    }

    /** The RDMAP control octet: RV 01b and the opcode. */
    static int rdmap(int opcode) {
        return 0x40 | opcode;
    }

    /** A tagged segment: DDP header (RFC 5041 section 4.2) and payload. */
    static byte[] tagged(int opcode, boolean last, int stag, long taggedOffset, byte[] payload) {
        ByteBuffer segment = ByteBuffer.allocate(DdpConstants.TAGGED_HEADER_LENGTH + payload.length);
        DdpHeaderEncoder.putTagged(segment, last, rdmap(opcode), stag, taggedOffset);
        return segment.put(payload).array();
    }

    /** An untagged segment: DDP header (RFC 5041 section 4.3) and payload (or an RDMAP header). */
    static byte[] untagged(int opcode, boolean last, int queue, int msn, long messageOffset, byte[] payload) {
        return untagged(opcode, last, 0, queue, msn, messageOffset, payload);
    }

    static byte[] untagged(int opcode, boolean last, int invalidateStag, int queue, int msn, long messageOffset,
                           byte[] payload) {
        ByteBuffer segment = ByteBuffer.allocate(DdpConstants.UNTAGGED_HEADER_LENGTH + payload.length);
        DdpHeaderEncoder.putUntagged(segment, last, rdmap(opcode), invalidateStag, queue, msn, messageOffset);
        return segment.put(payload).array();
    }

    /** The 28-octet Read Request header (RFC 5040 section 4.4). */
    static byte[] readRequestHeader(int sinkStag, long sinkOffset, int size, int sourceStag, long sourceOffset) {
        return ByteBuffer.allocate(28).putInt(sinkStag).putLong(sinkOffset).putInt(size).putInt(sourceStag)
                .putLong(sourceOffset).array();
    }

    /** A Terminate's control word without copied headers (RFC 5040 section 4.8). */
    static byte[] terminateControl(int layer, int errorType, int errorCode) {
        return ByteBuffer.allocate(4).putInt(layer << 28 | errorType << 24 | errorCode << 16).array();
    }

    /** FPDUs carrying these ULPDUs, CRC included. */
    static byte[] fpdus(List<byte[]> ulpdus) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] ulpdu : ulpdus) {
            out.writeBytes(fpdu(ulpdu));
        }
        return out.toByteArray();
    }

    /** One FPDU: length, ULPDU, pad, and the CRC32c over them as little-endian octets. */
    static byte[] fpdu(byte[] ulpdu) {
        int pad = FpduFramer.padLength(ulpdu.length);
        ByteBuffer fpdu = ByteBuffer.allocate(2 + ulpdu.length + pad + 4);
        fpdu.putShort((short) ulpdu.length).put(ulpdu).position(2 + ulpdu.length + pad);
        CRC32C crc = new CRC32C();
        crc.update(fpdu.array(), 0, 2 + ulpdu.length + pad);
        int value = (int) crc.getValue();
        fpdu.put((byte) value).put((byte) (value >>> 8)).put((byte) (value >>> 16)).put((byte) (value >>> 24));
        return fpdu.array();
    }
}
