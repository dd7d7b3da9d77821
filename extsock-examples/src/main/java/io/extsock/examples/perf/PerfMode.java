package io.extsock.examples.perf;

/** Which socket a perf test runs over; the RDMA tests always run in IWARP_MODE. */
enum PerfMode {
    /**
     * {@code java.net.Socket}: on both ends in {@code perf compare}; against {@code perf server}
     * on the client's (the server's end is a passthrough ExtendedSocket there).
     */
    plain("java.net.Socket"),
    /** ExtendedSocket, not switched: plain TCP through extsock. */
    passthrough("ExtendedSocket (passthrough)"),
    /** ExtendedSocket in IWARP_MODE: the stream over RDMAP Sends, or the extended API. */
    iwarp("ExtendedSocket (IWARP_MODE)");

    private final String description;

    PerfMode(String description) {
        this.description = description;
    }

    String description() {
        return description;
    }
}
