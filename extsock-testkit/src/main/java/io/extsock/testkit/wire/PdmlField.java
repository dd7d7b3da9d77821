package io.extsock.testkit.wire;

/** One {@code <field>} of tshark's PDML: its name, the value as shown, the raw octets in hex, the display text. */
record PdmlField(String name, String show, String value, String showname, int pos, int size) {

    /** The shown value as a number: hex with 0x, decimal, or a boolean (True/False). */
    long number() {
        return parseNumber(show);
    }

    static long parseNumber(String text) {
        if (text == null || text.isEmpty()) {
            throw new NumberFormatException("no value");
        }
        if (text.startsWith("0x") || text.startsWith("0X")) {
            return Long.parseUnsignedLong(text.substring(2), 16);
        }
        if (text.equalsIgnoreCase("true")) {
            return 1;
        }
        if (text.equalsIgnoreCase("false")) {
            return 0;
        }
        return Long.parseUnsignedLong(text);
    }
}
