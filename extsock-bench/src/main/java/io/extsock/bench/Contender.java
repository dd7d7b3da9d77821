package io.extsock.bench;

/**
 * One variant's part in a paired measurement: what the client thread and the server thread do
 * in one round. Both threads run every round of both variants, in the same order, so a round's
 * two parts always meet; the client's part returns the round's value.
 */
interface Contender {

    /**
     * The server thread's part of a round.
     *
     * @param round 0 for the first (warm-up) round; contenders check the data fully there
     */
    void serve(int round) throws Exception;

    /** The client thread's part of a round: the measured value (latency or bandwidth). */
    double run(int round) throws Exception;
}
