package io.extsock.core.terminate;

/**
 * A peer broke an iWARP protocol rule. Carries the {@link TerminateCause} that names the rule
 * in the terms of RFC 5040 section 7 (layer, error type, error code), which is what the
 * Terminate message sent to the peer reports, and a detail message for humans.
 *
 * <p>Every rejection of remote input by the codecs is one of these: never an unchecked
 * exception.
 */
public class ProtocolViolationException extends Exception {

    private final TerminateCause terminateCause;

    public ProtocolViolationException(TerminateCause terminateCause, String detail) {
        super(terminateCause.description() + ": " + detail);
        this.terminateCause = terminateCause;
    }

    /** What the Terminate message reports. */
    public TerminateCause terminateCause() {
        return terminateCause;
    }
}
