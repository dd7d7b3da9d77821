package io.extsock.testkit.wire;

/**
 * One reason a capture fails. Frame 0 and stream -1 when the finding has no single place
 * (tshark's expert summary counts, it does not say where).
 */
public record Finding(Kind kind, int frame, int stream, Direction direction, String message) {

    public enum Kind {
        /** Nothing in the capture was decoded as iWARP. */
        NO_IWARP,
        /** A stream carries payload but its MPA Request is not in the capture. */
        NO_HANDSHAKE,
        /** A dissector threw: Wireshark could not parse what it was given. */
        MALFORMED,
        EXPERT_ERROR,
        /** An expert warning that is not one of the forgiven ones. */
        EXPERT_WARNING,
        BAD_CRC,
        /** TCP payload that no decoded MPA frame accounts for: misframing, or bytes Wireshark skipped. */
        UNDECODED,
        /** Our own check of the decoded fields found a breach of the RFCs. */
        LINT
    }

    static Finding at(Kind kind, IwarpPdu pdu, String message) {
        return new Finding(kind, pdu.frame(), pdu.stream(), pdu.direction(), message);
    }

    @Override
    public String toString() {
        String where = (frame > 0 ? "frame " + frame + " " : "") + (stream >= 0 ? "stream " + stream + " " : "")
                + (direction != null && direction != Direction.UNKNOWN ? direction + " " : "");
        return kind + ": " + where + message;
    }
}
