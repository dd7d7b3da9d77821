package io.extsock.core.mpa;

/** How connection setup ended: an agreement to go to full operation, or a failure. */
public sealed interface MpaOutcome permits MpaAgreement, MpaFailure {
}
