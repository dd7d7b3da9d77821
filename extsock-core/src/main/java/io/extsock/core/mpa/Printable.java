package io.extsock.core.mpa;

import java.util.HexFormat;

/**
 * Shows octets a peer sent instead of an MPA frame so that a person can tell what it was: the
 * one format of every negotiation error that quotes the peer.
 */
public final class Printable {

    /** At most this many octets are shown; the count says how many there were. */
    static final int SHOWN = 48;

    private Printable() {
    }

    /** Quoted text with escapes, then hex: {@code "GET / HTTP/1.1\r\n" (47 45 54 ...)}. */
    public static String describe(byte[] octets) {
        return describe(octets, 0, octets.length);
    }

    /**
     * Octets {@code from} to {@code to} as quoted text with escapes, then hex; past {@link
     * #SHOWN} octets, the first ones and how many there were: {@code "GET..." (47 45 54 ...; 900
     * octets)}.
     */
    public static String describe(byte[] octets, int from, int to) {
        int end = Math.min(to, from + SHOWN);
        StringBuilder text = new StringBuilder("\"");
        for (int i = from; i < end; i++) {
            int c = octets[i] & 0xFF;
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
        boolean cut = end < to;
        text.append(cut ? "...\" (" : "\" (").append(HexFormat.ofDelimiter(" ").formatHex(octets, from, end));
        return (cut ? text.append(" ...; ").append(to - from).append(" octets)") : text.append(')')).toString();
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
