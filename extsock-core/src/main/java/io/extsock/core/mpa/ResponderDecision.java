package io.extsock.core.mpa;

/**
 * The Responder's answer to a Request: the Reply to send in any case (with R set when the
 * outcome is a failure), and the outcome.
 */
public record ResponderDecision(MpaFrame reply, MpaOutcome outcome) {
}
