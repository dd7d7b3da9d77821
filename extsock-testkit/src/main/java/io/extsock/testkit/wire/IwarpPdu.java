package io.extsock.testkit.wire;

/**
 * One iWARP PDU as Wireshark decoded it: an MPA Request or Reply, or an FPDU. Frame is the
 * capture's frame number (where a split FPDU was put back together), stream is tshark's
 * {@code tcp.stream}.
 */
public sealed interface IwarpPdu permits MpaSetupFrame, Fpdu {

    int frame();

    int stream();

    Direction direction();

    /** Octets of TCP payload this PDU accounts for (markers included). */
    int octets();
}
