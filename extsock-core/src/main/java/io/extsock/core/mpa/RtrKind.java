package io.extsock.core.mpa;

/**
 * The zero-length FPDU an Initiator can send as its ready-to-receive (RTR) message in the
 * peer-to-peer model of RFC 6581 section 7: it lets the Responder transmit, which RFC 5044
 * forbids before the Initiator's first FPDU.
 *
 * <p>Listed in the order we prefer them as Responder: a zero-length Write needs nothing from
 * either side; a Read needs an inbound read credit at the Responder and an outbound one at the
 * Initiator; a Send consumes a posted receive buffer at the Responder.
 */
public enum RtrKind {
    /** Zero-length RDMA Write: bit C of the ORD word. */
    ZERO_LENGTH_WRITE,
    /** Zero-length RDMA Read Request: bit D of the ORD word. */
    ZERO_LENGTH_READ,
    /** Zero-length Send: bit B of the IRD word. */
    ZERO_LENGTH_SEND;

    /** This kind's bit in the IRD word, or 0. */
    int irdWordBit() {
        return this == ZERO_LENGTH_SEND ? MpaConstants.IRD_ZERO_LENGTH_SEND_RTR : 0;
    }

    /** This kind's bit in the ORD word, or 0. */
    int ordWordBit() {
        return switch (this) {
            case ZERO_LENGTH_WRITE -> MpaConstants.ORD_ZERO_LENGTH_WRITE_RTR;
            case ZERO_LENGTH_READ -> MpaConstants.ORD_ZERO_LENGTH_READ_RTR;
            case ZERO_LENGTH_SEND -> 0;
        };
    }
}
