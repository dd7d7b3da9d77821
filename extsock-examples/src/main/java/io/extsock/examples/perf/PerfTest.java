package io.extsock.examples.perf;

/**
 * The tests of {@code extsock perf}: perftest's names and titles, plus three over sockets: tcp_lat
 * (a ping-pong, reported as half the round trip, as perftest reports its ping-pongs), tcp_rr (the
 * same exchange reported as the whole round trip: a request and its response, what an RDMA Read
 * costs) and tcp_bw.
 */
enum PerfTest {
    send_lat("Send Latency Test", true, true),
    send_bw("Send BW Test", false, true),
    write_lat("RDMA_Write Latency Test", true, true),
    write_bw("RDMA_Write BW Test", false, true),
    read_lat("RDMA_Read Latency Test", true, true),
    read_bw("RDMA_Read BW Test", false, true),
    tcp_lat("TCP Latency Test", true, false),
    tcp_bw("TCP BW Test", false, false),
    /** Added last: the ordinal is the wire's code for the test. */
    tcp_rr("TCP Request/Response Test", true, false);

    /** The test of that name (any case), or null if none is. */
    static PerfTest named(String name) {
        for (PerfTest test : values()) {
            if (test.name().equalsIgnoreCase(name)) {
                return test;
            }
        }
        return null;
    }

    /** "send_lat, send_bw, ...": every test's name. */
    static String names() {
        return java.util.Arrays.stream(values()).map(PerfTest::name).collect(java.util.stream.Collectors.joining(", "));
    }

    private final String title;
    private final boolean latency;
    private final boolean rdma;

    PerfTest(String title, boolean latency, boolean rdma) {
        this.title = title;
        this.latency = latency;
        this.rdma = rdma;
    }

    /** The title perftest prints above its table. */
    String title() {
        return title;
    }

    /** A latency test (ping-pong or one at a time), else a bandwidth test (many in flight). */
    boolean latency() {
        return latency;
    }

    /** Uses the extended API (Sends, RDMA Write, RDMA Read): needs IWARP_MODE. */
    boolean rdma() {
        return rdma;
    }

    /** Whether the application posts its own Sends and Receives (so the streams must step aside). */
    boolean ownsSends() {
        return this == send_lat || this == send_bw;
    }
}
