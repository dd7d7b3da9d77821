package io.extsock.bench;

import io.extsock.ExtendedSelectorProvider;
import java.nio.channels.spi.SelectorProvider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What extsock's NIO costs in passthrough next to the JDK's: its {@link ExtendedSelectorProvider}'s
 * channels and selectors against the JDK's provider's, each pair of measurements in the same run,
 * in alternating rounds on the same threads (see {@link PairedComparison}):
 * <ul>
 *   <li>64 B ping-pong latency, p50 and p99, non-blocking channels in selector loops;
 *   <li>bandwidth of 64 KiB writes, both ends in selector loops;
 *   <li>64 B ping-pong latency, p50 and p99, channels in blocking mode;
 *   <li>over 1,000 idle connections and one active, in one selector: a {@code select()} that
 *       finds the active one, and a {@code selectNow()} that finds nothing.
 * </ul>
 * Targets: latency at most 1.02x and bandwidth at least 0.98x the JDK's; a selection at most
 * 1.10x the JDK selector's.
 *
 * <p>Run: {@code java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*'
 * io.extsock.bench.NioPassthroughOverhead [--quick] [idle-connections]}, without
 * {@code -Djava.nio.channels.spi.SelectorProvider} (the JVM's provider is the baseline).
 */
public final class NioPassthroughOverhead {

    static final Target LATENCY_TARGET = new Target(false, 1.02);
    static final Target BANDWIDTH_TARGET = new Target(true, 0.98);
    static final Target SELECTION_TARGET = new Target(false, 1.10);

    static final int DEFAULT_IDLE_CONNECTIONS = 1000;
    private static final int MESSAGE = 64;
    private static final int WRITE = 64 * 1024;
    private static final int ROUND_TRIPS = 10_000;
    private static final long STREAM_BYTES = 128L << 20;
    private static final int SELECTIONS = 20_000;

    /** One line of the table: a measurement and the bound it is judged against. */
    record Row(PairedComparison.Result result, Target target) {

        Target.Verdict verdict() {
            return target.judge(result.ratioInterval());
        }
    }

    private NioPassthroughOverhead() {
    }

    public static void main(String[] args) throws Exception {
        RunLength length = RunLength.of(args);
        int idle = new PositionalNumbers(args).get(0, DEFAULT_IDLE_CONNECTIONS);
        List<Row> rows = measure(length, idle, false);
        System.out.printf("NIO passthrough: extsock's SelectorProvider against the JDK's, same run, %d alternating"
                + " rounds (+%d warm-up), Java %s%n%n", length.rounds(), length.warmupRounds(), Runtime.version());
        System.out.printf("%-46s %-14s %14s %14s %8s %-17s %s%n",
                "measure", "size", "JDK", "extsock", "ratio", " (95% interval)", "target");
        for (Row row : rows) {
            PairedComparison.Result r = row.result();
            double[] interval = r.ratioInterval();
            System.out.printf("%-46s %-14s %9.2f %-4s %9.2f %-4s %8.3f  [%.3f, %.3f]  %s %s%n",
                    r.test(), r.size(), r.baselineMedian(), r.unit(), r.candidateMedian(), r.unit(),
                    r.ratio(), interval[0], interval[1], row.target(), row.verdict().word);
        }
    }

    /**
     * Every measurement, in the table's order.
     *
     * @param idleConnections the idle connections beside the active one in the selections' selector
     * @param checkEveryRound whether measured rounds check every byte too (warm-up rounds always do)
     */
    static List<Row> measure(RunLength length, int idleConnections, boolean checkEveryRound) throws Exception {
        SelectorProvider jdk = jdkProvider();
        SelectorProvider extsock = ExtendedSelectorProvider.provider();
        PairedComparison comparison = new PairedComparison(length.warmupRounds(), length.rounds());
        NioChannelRounds.Checks checks = new NioChannelRounds.Checks(length.warmupRounds(), checkEveryRound);
        List<Row> rows = new ArrayList<>();
        try (SelectingLink jdkLink = SelectingLink.open(jdk); SelectingLink extsockLink = SelectingLink.open(extsock)) {
            rows.addAll(pingPong(comparison, length, "round trip, selector loop", jdkLink.client, jdkLink.server,
                    extsockLink.client, extsockLink.server, checks));
            rows.add(new Row(comparison.compare("bandwidth, selector loops", PairedComparison.label(WRITE)
                    + " writes", "MB/s", true,
                    NioChannelRounds.streaming(jdkLink.client, jdkLink.server, WRITE, length.bytes(STREAM_BYTES), checks),
                    NioChannelRounds.streaming(extsockLink.client, extsockLink.server, WRITE,
                            length.bytes(STREAM_BYTES), checks)), BANDWIDTH_TARGET));
        }
        try (ProviderLink jdkLink = ProviderLink.open(jdk); ProviderLink extsockLink = ProviderLink.open(extsock)) {
            rows.addAll(pingPong(comparison, length, "round trip, blocking channels", new BlockingEnd(jdkLink.client),
                    new BlockingEnd(jdkLink.server), new BlockingEnd(extsockLink.client),
                    new BlockingEnd(extsockLink.server), checks));
        }
        try (CrowdedSelector jdkSelector = CrowdedSelector.open(jdk, idleConnections);
             CrowdedSelector extsockSelector = CrowdedSelector.open(extsock, idleConnections)) {
            int selections = length.iterations(SELECTIONS);
            String size = idleConnections + " idle + 1";
            rows.add(new Row(comparison.compare("select() finding the active connection", size, "us", false,
                    jdkSelector.findingOne(selections), extsockSelector.findingOne(selections)), SELECTION_TARGET));
            rows.add(new Row(comparison.compare("selectNow() finding nothing", size, "us", false,
                    jdkSelector.findingNone(selections), extsockSelector.findingNone(selections)), SELECTION_TARGET));
        }
        return rows;
    }

    /** A ping-pong's p50 and p99 rows, from the same rounds. */
    private static List<Row> pingPong(PairedComparison comparison, RunLength length, String test,
                                      MessageEnd jdkClient, MessageEnd jdkServer, MessageEnd extsockClient,
                                      MessageEnd extsockServer, NioChannelRounds.Checks checks) throws Exception {
        int roundTrips = length.iterations(ROUND_TRIPS);
        int allRounds = length.warmupRounds() + length.rounds();
        double[][] p99 = new double[2][allRounds];
        PairedComparison.Result p50 = comparison.compare(test + ", p50", MESSAGE + " B", "us", false,
                NioChannelRounds.pingPong(jdkClient, jdkServer, MESSAGE, roundTrips, checks, p99[0]),
                NioChannelRounds.pingPong(extsockClient, extsockServer, MESSAGE, roundTrips, checks, p99[1]));
        PairedComparison.Result tail = new PairedComparison.Result(test + ", p99", MESSAGE + " B", "us", false,
                measured(p99[0], length.warmupRounds()), measured(p99[1], length.warmupRounds()));
        return List.of(new Row(p50, LATENCY_TARGET), new Row(tail, LATENCY_TARGET));
    }

    private static double[] measured(double[] all, int warmupRounds) {
        return Arrays.copyOfRange(all, warmupRounds, all.length);
    }

    /** The JVM's provider, which must be the JDK's own: it is the baseline. */
    static SelectorProvider jdkProvider() {
        SelectorProvider provider = SelectorProvider.provider();
        if (provider instanceof ExtendedSelectorProvider) {
            throw new IllegalStateException("the JVM's SelectorProvider is extsock's"
                    + " (-Djava.nio.channels.spi.SelectorProvider or the agent), but the baseline must be the JDK's"
                    + " own: run without them");
        }
        return provider;
    }
}
