package io.extsock.core.mpa;

/** Which end of the connection setup this side is, RFC 5044 section 7.1. */
public enum MpaRole {
    /** Sent the Request; sends the first FPDU (the RTR frame in the peer-to-peer model). */
    INITIATOR,
    /** Sent the Reply; sends no FPDU before the Initiator's first one arrived. */
    RESPONDER
}
