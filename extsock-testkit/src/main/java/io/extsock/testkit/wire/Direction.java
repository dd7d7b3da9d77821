package io.extsock.testkit.wire;

/** Which way a PDU went, relative to the side that sent the MPA Request. */
public enum Direction {
    INITIATOR_TO_RESPONDER("I->R"),
    RESPONDER_TO_INITIATOR("R->I"),
    /** The stream has no MPA Request in the capture, so nobody is known to have started it. */
    UNKNOWN("?");

    private final String arrow;

    Direction(String arrow) {
        this.arrow = arrow;
    }

    public Direction reverse() {
        return switch (this) {
            case INITIATOR_TO_RESPONDER -> RESPONDER_TO_INITIATOR;
            case RESPONDER_TO_INITIATOR -> INITIATOR_TO_RESPONDER;
            case UNKNOWN -> UNKNOWN;
        };
    }

    @Override
    public String toString() {
        return arrow;
    }
}
