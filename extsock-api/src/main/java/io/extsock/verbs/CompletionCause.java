package io.extsock.verbs;

/**
 * Why a work request failed, as a value to test and switch on (its {@code detail} says the
 * same in words). A Terminate's cause is its RFC 5040 section 4.8 layer (0 RDMAP, 1 DDP, 2 LLP),
 * error type and error code, whichever end sent it; the other causes are local.
 *
 * @param origin where the cause comes from
 * @param layer for a Terminate: its layer; else -1
 * @param errorType for a Terminate: its error type; else -1
 * @param errorCode for a Terminate: its error code; else -1
 */
public record CompletionCause(Origin origin, int layer, int errorType, int errorCode) {

    /** Where a cause comes from. */
    public enum Origin {
        /** The request succeeded. */
        NONE,
        /** The peer sent a Terminate (it found that this side broke a rule): its layer/type/code. */
        TERMINATE_RECEIVED,
        /** This side sent a Terminate (the peer broke a rule): its layer/type/code. */
        TERMINATE_SENT,
        /** The application closed the connection. */
        CLOSED,
        /** The connection broke under us (reset, end of stream, I/O error). */
        CONNECTION_LOST,
        /** The request failed this side's own checks before it went anywhere (region, rights, bounds). */
        LOCAL_CHECK
    }

    /** A success. */
    public static final CompletionCause NONE = new CompletionCause(Origin.NONE, -1, -1, -1);
    /** The application closed the connection. */
    public static final CompletionCause CLOSED = new CompletionCause(Origin.CLOSED, -1, -1, -1);
    /** The connection broke under us. */
    public static final CompletionCause CONNECTION_LOST = new CompletionCause(Origin.CONNECTION_LOST, -1, -1, -1);
    /** This side's own checks refused the request. */
    public static final CompletionCause LOCAL_CHECK = new CompletionCause(Origin.LOCAL_CHECK, -1, -1, -1);

    /**
     * A cause.
     *
     * @param origin where the cause comes from
     * @param layer for a Terminate: its layer; else -1
     * @param errorType for a Terminate: its error type; else -1
     * @param errorCode for a Terminate: its error code; else -1
     * @throws NullPointerException if origin is null
     */
    public CompletionCause {
        java.util.Objects.requireNonNull(origin, "origin");
    }

    /**
     * The peer's Terminate, by its layer, error type and error code.
     *
     * @param layer the Terminate's layer (0 RDMAP, 1 DDP, 2 LLP)
     * @param errorType its error type within the layer
     * @param errorCode its error code within the type
     * @return the cause
     */
    public static CompletionCause terminateReceived(int layer, int errorType, int errorCode) {
        return new CompletionCause(Origin.TERMINATE_RECEIVED, layer, errorType, errorCode);
    }

    /**
     * A Terminate this side sent, by its layer, error type and error code.
     *
     * @param layer the Terminate's layer (0 RDMAP, 1 DDP, 2 LLP)
     * @param errorType its error type within the layer
     * @param errorCode its error code within the type
     * @return the cause
     */
    public static CompletionCause terminateSent(int layer, int errorType, int errorCode) {
        return new CompletionCause(Origin.TERMINATE_SENT, layer, errorType, errorCode);
    }

    /**
     * Whether a Terminate (either way) is the cause.
     *
     * @return true for a Terminate sent or received
     */
    public boolean isTerminate() {
        return origin == Origin.TERMINATE_RECEIVED || origin == Origin.TERMINATE_SENT;
    }

    @Override
    public String toString() {
        return isTerminate() ? String.format("%s(layer %d, type %d, code 0x%02x)", origin, layer, errorType, errorCode)
                : origin.name();
    }
}
