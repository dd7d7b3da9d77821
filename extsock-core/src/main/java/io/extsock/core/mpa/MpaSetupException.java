package io.extsock.core.mpa;

import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;

/** A peer's Request or Reply broke an MPA rule; carries the user-facing reason as well. */
public class MpaSetupException extends ProtocolViolationException {

    private final MpaFailureReason reason;

    public MpaSetupException(MpaFailureReason reason, TerminateCause terminateCause, String detail) {
        super(terminateCause, detail);
        this.reason = reason;
    }

    public MpaFailureReason reason() {
        return reason;
    }
}
