package io.extsock.bench;

/**
 * The two measures of a wait floor's ping-pong ({@link NioWaitFloor}):
 * the median round trip of each round, and the CPU per round trip of every thread.
 */
record RoundTripMeasures(PairedComparison.Result latency, PairedComparison.Result cpu) {
}
