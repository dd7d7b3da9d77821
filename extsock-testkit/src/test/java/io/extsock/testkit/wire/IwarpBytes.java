package io.extsock.testkit.wire;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Builds the octets of MPA setup frames and DDP/RDMAP segments by hand, for traffic the judge
 * is tested on. Independent of extsock-core on purpose: the judge's self-test must not lean on
 * the code the judge is there to judge.
 */
final class IwarpBytes {

    static final int WRITE = 0;
    static final int READ_REQUEST = 1;
    static final int READ_RESPONSE = 2;
    static final int SEND = 3;
    static final int SEND_INVALIDATE = 4;
    static final int SEND_SE = 5;
    static final int TERMINATE = 7;
    static final int ATOMIC_REQUEST = 10;

    static final int M = 0x80;
    static final int C = 0x40;
    static final int R = 0x20;
    static final int H = 0x10;

    private IwarpBytes() {
    }

    /** "MPA ID Req Frame" or "MPA ID Rep Frame", flags, revision, private data length, private data. */
    static byte[] setupFrame(boolean reply, int flags, int revision, byte[] privateData) {
        ByteBuffer frame = ByteBuffer.allocate(20 + privateData.length);
        frame.put((reply ? "MPA ID Rep Frame" : "MPA ID Req Frame").getBytes(StandardCharsets.US_ASCII));
        frame.put((byte) flags).put((byte) revision).putShort((short) privateData.length).put(privateData);
        return frame.array();
    }

    /** RFC 6581's IRD and ORD words, then the ULP's own private data. */
    static byte[] enhancedPrivateData(int irdWord, int ordWord, byte[] more) {
        return ByteBuffer.allocate(4 + more.length).putShort((short) irdWord).putShort((short) ordWord).put(more).array();
    }

    private static int ddpControl(boolean tagged, boolean last) {
        return (tagged ? 0x80 : 0) | (last ? 0x40 : 0) | 0x01;
    }

    private static int rdmapControl(int opcode) {
        return 0x40 | opcode;
    }

    static byte[] tagged(int opcode, boolean last, int stag, long taggedOffset, byte[] payload) {
        return ByteBuffer.allocate(14 + payload.length).put((byte) ddpControl(true, last))
                .put((byte) rdmapControl(opcode)).putInt(stag).putLong(taggedOffset).put(payload).array();
    }

    static byte[] untagged(int opcode, boolean last, int rsvdUlp, int queue, int msn, int offset, byte[] payload) {
        return ByteBuffer.allocate(18 + payload.length).put((byte) ddpControl(false, last))
                .put((byte) rdmapControl(opcode)).putInt(rsvdUlp).putInt(queue).putInt(msn).putInt(offset)
                .put(payload).array();
    }

    static byte[] send(int msn, int offset, boolean last, byte[] payload) {
        return untagged(SEND, last, 0, 0, msn, offset, payload);
    }

    static byte[] readRequest(int msn, int sinkStag, long sinkOffset, int size, int sourceStag, long sourceOffset) {
        byte[] body = ByteBuffer.allocate(28).putInt(sinkStag).putLong(sinkOffset).putInt(size).putInt(sourceStag)
                .putLong(sourceOffset).array();
        return untagged(READ_REQUEST, true, 0, 1, msn, 0, body);
    }

    /** A Terminate that copies no header: layer, error type, error code, then M D R and reserved all 0. */
    static byte[] terminate(int msn, int layer, int errorType, int errorCode) {
        byte[] control = ByteBuffer.allocate(4).put((byte) (layer << 4 | errorType)).put((byte) errorCode)
                .putShort((short) 0).array();
        return untagged(TERMINATE, true, 0, 2, msn, 0, control);
    }

    static byte[] payload(int length, int seed) {
        byte[] payload = new byte[length];
        for (int i = 0; i < length; i++) {
            payload[i] = (byte) (seed + i * 7);
        }
        return payload;
    }
}
