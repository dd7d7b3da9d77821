package io.extsock.core.ddp;

import java.nio.ByteBuffer;
import java.util.HexFormat;

/** Known-answer bytes written as hex, spaces allowed, as WIRE.md quotes them. */
public final class WireHex {

    private WireHex() {
    }

    public static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex.replace(" ", ""));
    }

    public static ByteBuffer buffer(String hex) {
        return ByteBuffer.wrap(bytes(hex));
    }

    /** The octets between position and limit, as lowercase hex without spaces. */
    public static String hex(ByteBuffer buffer) {
        byte[] octets = new byte[buffer.remaining()];
        buffer.duplicate().get(octets);
        return HexFormat.of().formatHex(octets);
    }

    public static String hex(String spaced) {
        return spaced.replace(" ", "").toLowerCase();
    }
}
