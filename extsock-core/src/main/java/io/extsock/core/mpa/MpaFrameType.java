package io.extsock.core.mpa;

import java.nio.ByteBuffer;

/** Which of the two connection setup frames, RFC 5044 section 7.1.1: each has its own key. */
public enum MpaFrameType {
    /** Sent by the Initiator, the side that opened the TCP connection. */
    REQUEST(MpaConstants.REQUEST_KEY),
    /** Sent by the Responder in answer. */
    REPLY(MpaConstants.REPLY_KEY);

    private final String key;
    private final byte[] keyBytes;

    MpaFrameType(String key) {
        this.key = key;
        this.keyBytes = MpaConstants.keyBytes(key);
    }

    /** The 16-character ASCII key that opens the frame. */
    public String key() {
        return key;
    }

    /** The key octet at this index (0..15). */
    int keyByte(int index) {
        return keyBytes[index] & 0xFF;
    }

    void putKey(ByteBuffer destination) {
        destination.put(keyBytes);
    }

    /** The other frame type. */
    MpaFrameType other() {
        return this == REQUEST ? REPLY : REQUEST;
    }

    @Override
    public String toString() {
        return this == REQUEST ? "Request" : "Reply";
    }
}
