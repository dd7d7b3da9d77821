package io.extsock.core.mpa;

/** Why connection setup failed, in terms a user can act on. */
public enum MpaFailureReason {
    /** The Responder's Reply has R set: its ULP said no (its private data may say why). */
    PEER_REJECTED,
    /** The first octets are no MPA key: the peer speaks something else, e.g. plain TCP. */
    NOT_MPA_PEER,
    /** A Reply arrived where a Request was due, or the other way round. */
    UNEXPECTED_FRAME,
    /** A setup frame breaks a format rule, or a Reply contradicts its Request. */
    MALFORMED,
    /** The peer's revision, or its lack of enhanced setup, is one we do not accept. */
    UNSUPPORTED_REVISION,
    /** One side requires markers the other will not send. */
    MARKERS_REFUSED,
    /** The Responder's ORD exceeds the IRD the Initiator can offer, RFC 6581 section 7.1. */
    INSUFFICIENT_IRD,
    /** Peer-to-peer was asked for but the two sides share no RTR kind, RFC 6581 section 7.1. */
    NO_MATCHING_RTR
}
