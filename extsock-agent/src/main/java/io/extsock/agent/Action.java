package io.extsock.agent;

/** What a rule does with the connections it matches. */
public enum Action {
    /** Switch the connection to IWARP_MODE (the initiator right after connect, the responder on first use). */
    IWARP,
    /** Leave the connection plain TCP. */
    TCP;

    /** @return the word in a rules file */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
