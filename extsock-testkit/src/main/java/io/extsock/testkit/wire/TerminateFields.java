package io.extsock.testkit.wire;

/** The control part of a Terminate (RFC 5040 section 4.8) and which headers it copies. */
public record TerminateFields(int layer, int errorType, int errorCode, String errorText, boolean ddpSegmentLength,
                              boolean ddpHeader, boolean rdmapHeader) {
}
