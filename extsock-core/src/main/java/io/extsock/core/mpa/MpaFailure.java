package io.extsock.core.mpa;

import io.extsock.core.terminate.TerminateCause;
import java.util.Objects;
import java.util.Optional;

/**
 * Connection setup failed.
 *
 * @param reason what went wrong, for users and for code
 * @param detail the particulars, for people
 * @param terminate the cause to report in a Terminate message, when one is due: the Initiator
 *     is in full operation once it has the Reply, so it reports a Reply it cannot live with
 *     that way (RFC 6581 section 7.1); a Responder refuses with a rejecting Reply instead
 * @param peerPrivateData the peer's private data for the ULP (with a rejection, its reason)
 */
public record MpaFailure(MpaFailureReason reason, String detail, Optional<TerminateCause> terminate,
        PrivateData peerPrivateData) implements MpaOutcome {

    public MpaFailure {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(terminate, "terminate");
        Objects.requireNonNull(peerPrivateData, "peerPrivateData");
    }

    @Override
    public String toString() {
        return "MPA setup failed (" + reason + "): " + detail
                + terminate.map(cause -> "; Terminate with " + cause).orElse("");
    }
}
