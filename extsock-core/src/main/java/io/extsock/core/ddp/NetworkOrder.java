package io.extsock.core.ddp;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Absolute big-endian reads and writes on a {@link ByteBuffer}, whatever byte order the buffer
 * was set to. Every iWARP header field is big-endian (RFC 5041 section 4, RFC 5040 section 4),
 * while a buffer handed to us may have been switched to little-endian (the MPA CRC is written
 * that way), so the codecs never rely on the buffer's own order.
 */
public final class NetworkOrder {

    private NetworkOrder() {
    }

    public static int getUnsignedByte(ByteBuffer buffer, int index) {
        return buffer.get(index) & 0xFF;
    }

    public static int getUnsignedShort(ByteBuffer buffer, int index) {
        return (buffer.get(index) & 0xFF) << 8 | buffer.get(index + 1) & 0xFF;
    }

    public static int getInt(ByteBuffer buffer, int index) {
        int value = buffer.getInt(index);
        return buffer.order() == ByteOrder.BIG_ENDIAN ? value : Integer.reverseBytes(value);
    }

    public static long getLong(ByteBuffer buffer, int index) {
        long value = buffer.getLong(index);
        return buffer.order() == ByteOrder.BIG_ENDIAN ? value : Long.reverseBytes(value);
    }

    public static void putShort(ByteBuffer buffer, int index, int value) {
        buffer.put(index, (byte) (value >>> 8));
        buffer.put(index + 1, (byte) value);
    }

    public static void putInt(ByteBuffer buffer, int index, int value) {
        buffer.putInt(index, buffer.order() == ByteOrder.BIG_ENDIAN ? value : Integer.reverseBytes(value));
    }

    public static void putLong(ByteBuffer buffer, int index, long value) {
        buffer.putLong(index, buffer.order() == ByteOrder.BIG_ENDIAN ? value : Long.reverseBytes(value));
    }
}
