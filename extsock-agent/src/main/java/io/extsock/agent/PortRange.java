package io.extsock.agent;

/** The PORTS field of a rule: one port, an inclusive range, or every port ({@code *}). */
final class PortRange {

    static final int MIN_PORT = 1;
    static final int MAX_PORT = 65535;
    static final PortRange ANY = new PortRange(MIN_PORT, MAX_PORT);

    private final int first;
    private final int last;

    PortRange(int first, int last) {
        if (first < MIN_PORT || last > MAX_PORT || first > last) {
            throw new IllegalArgumentException("bad port range " + first + "-" + last);
        }
        this.first = first;
        this.last = last;
    }

    boolean contains(int port) {
        return port >= first && port <= last;
    }
}
