package io.extsock.agent;

/** Which connections a rule looks at, and by which address. */
public enum Side {
    /** Outgoing connections, matched by their destination address and port. */
    CONNECT,
    /** Incoming (accepted) connections, matched by the local address they arrived at and the local port. */
    ACCEPT;

    /** @return the word in a rules file */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
