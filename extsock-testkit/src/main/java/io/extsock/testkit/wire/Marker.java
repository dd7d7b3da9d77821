package io.extsock.testkit.wire;

/**
 * An MPA marker inside an FPDU (RFC 5044 section 4.3).
 *
 * @param offset where the marker starts, counted from the first octet of its FPDU (a leading
 *     marker has offset 0 and the FPDU's length field then sits at 4)
 */
public record Marker(int reserved, int fpduPointer, int offset) {
}
