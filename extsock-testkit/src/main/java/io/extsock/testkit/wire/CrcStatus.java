package io.extsock.testkit.wire;

/** What Wireshark made of an FPDU's CRC field. */
public enum CrcStatus {
    /** CRC negotiated; the value matches. */
    GOOD,
    /** CRC negotiated; the value is wrong ("Bad CRC32" in the field text, not an expert item). */
    BAD,
    /** Neither side asked for CRC; the field is shown, not checked. */
    NOT_NEGOTIATED,
    /** No CRC field decoded at all. */
    MISSING
}
