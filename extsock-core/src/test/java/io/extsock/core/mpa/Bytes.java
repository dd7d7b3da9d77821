package io.extsock.core.mpa;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.zip.CRC32C;

/** Test helpers for writing down wire octets. */
final class Bytes {

    private Bytes() {
    }

    /** Octets from hex with any spaces: {@code "00 22 4143"}. */
    static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex.replace(" ", ""));
    }

    static String hex(byte[] octets) {
        return HexFormat.ofDelimiter(" ").formatHex(octets);
    }

    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    /** The JDK's CRC32c of the octets, as the four little-endian wire octets. */
    static byte[] crcOnWire(byte[] octets) {
        CRC32C crc = new CRC32C();
        crc.update(octets);
        int value = (int) crc.getValue();
        return new byte[] {(byte) value, (byte) (value >>> 8), (byte) (value >>> 16), (byte) (value >>> 24)};
    }

    /** What a gathering channel write of the whole GatherWrite puts on the wire; then resets it. */
    static byte[] drain(GatherWrite write) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer[] buffers = write.buffers();
        for (int i = 0; i < write.count(); i++) {
            ByteBuffer buffer = buffers[i];
            byte[] chunk = new byte[buffer.remaining()];
            buffer.get(chunk);
            out.writeBytes(chunk);
        }
        write.reset();
        return out.toByteArray();
    }

    /** Iterations, 100 times more with -Dextsock.long=true. */
    static int iterations(int normal) {
        return Boolean.getBoolean("extsock.long") ? normal * 100 : normal;
    }
}
