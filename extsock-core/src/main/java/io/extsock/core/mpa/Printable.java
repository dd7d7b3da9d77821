package io.extsock.core.mpa;

import java.util.HexFormat;

/** Shows octets a peer sent instead of an MPA key so that a person can tell what it was. */
final class Printable {

    private Printable() {
    }

    /** Quoted text with escapes, then hex: {@code "GET / HTTP/1.1\r\n" (47 45 54 ...)}. */
    static String describe(byte[] octets) {
        StringBuilder text = new StringBuilder("\"");
        for (byte b : octets) {
            int c = b & 0xFF;
            switch (c) {
                case '\r' -> text.append("\\r");
                case '\n' -> text.append("\\n");
                case '\t' -> text.append("\\t");
                case '"', '\\' -> text.append('\\').append((char) c);
                default -> {
                    if (c >= 0x20 && c < 0x7F) {
                        text.append((char) c);
                    } else {
                        text.append(String.format("\\x%02x", c));
                    }
                }
            }
        }
        return text.append("\" (").append(HexFormat.ofDelimiter(" ").formatHex(octets)).append(')').toString();
    }

    /** A guess at what the peer is, for the error message. */
    static String diagnose(byte[] octets, MpaFrameType expected) {
        String peer = expected == MpaFrameType.REQUEST ? "the connecting peer" : "the accepting peer";
        if (octets.length >= 2 && octets[0] == 0x16 && octets[1] == 0x03) {
            return "this looks like a TLS handshake; " + peer + " is not in IWARP_MODE";
        }
        if (isText(octets)) {
            return "this looks like plain text; " + peer + " is probably not in IWARP_MODE"
                    + " (it sent application data instead of an MPA " + expected + ")";
        }
        return peer + " does not speak MPA (is it in IWARP_MODE?)";
    }

    private static boolean isText(byte[] octets) {
        for (byte b : octets) {
            int c = b & 0xFF;
            if ((c < 0x20 || c >= 0x7F) && c != '\r' && c != '\n' && c != '\t') {
                return false;
            }
        }
        return true;
    }
}
