package io.extsock.verbs;

/**
 * What MPA negotiation agreed on for a connection (RFC 5044, RFC 6581).
 *
 * @param mpaRevision      1 or 2
 * @param crc              CRC32c on every FPDU
 * @param markersSent      this side inserts markers
 * @param markersReceived  the peer inserts markers
 * @param ird              inbound RDMA Reads this side serves at once
 * @param ord              outbound RDMA Reads this side may have outstanding
 * @param maxFpduSize      the largest FPDU this side sends
 * @param initiator        this side connected (MPA initiator)
 */
public record IwarpSettings(int mpaRevision, boolean crc, boolean markersSent, boolean markersReceived,
                            int ird, int ord, int maxFpduSize, boolean initiator) {
}
