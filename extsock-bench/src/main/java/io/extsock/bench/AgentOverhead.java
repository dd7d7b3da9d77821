package io.extsock.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What the agent costs a connection under a {@code tcp} rule: the same unmodified program
 * ({@link PlainSocketWorkload}: a 64 B ping-pong and a stream of 64 KiB writes over a plain
 * java.net.Socket) in a fresh JVM per run, without the agent and with it ({@code tcp connect * *},
 * {@code tcp accept * *}), the two alternating round by round (plain first in even rounds, agent
 * first in odd ones) so that both see the same machine. The ratio is the median of the per-round
 * ratios, with a 95% bootstrap interval. A measurement, not a test: nothing here passes or fails.
 *
 * <p>Each child runs pinned to the same CPU ({@code taskset -c 0} by default; {@code any} for no
 * pinning): on a 2-vCPU machine a JVM whose two threads land on one core measures loopback round
 * trips five times shorter than one whose threads land on two, which, drawn anew for every JVM,
 * would swamp the few percent being measured.
 *
 * <pre>
 * mvn -q -DskipTests package -pl extsock-bench,extsock-agent -am
 * java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*' io.extsock.bench.AgentOverhead \
 *     [rounds=30] [round-trips=100000] [stream-mib=2048] [cpus=0|any] [agent-jar=extsock-agent/target/extsock-agent.jar]
 * </pre>
 */
public final class AgentOverhead {

    private AgentOverhead() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        String roundTrips = args.length > 1 ? args[1] : "100000";
        String streamMib = args.length > 2 ? args[2] : "2048";
        String cpus = args.length > 3 ? args[3] : "0";
        String pin = cpus.equals("any") ? null : cpus;
        Path agentJar = Path.of(args.length > 4 ? args[4] : "extsock-agent/target/extsock-agent.jar").toAbsolutePath();
        if (!Files.isRegularFile(agentJar)) {
            throw new IllegalArgumentException("no agent jar at " + agentJar + ": mvn -q -DskipTests package -pl extsock-agent -am");
        }
        Path rules = Files.createTempFile("tcp", ".rules");
        Files.write(rules, List.of("tcp connect * *", "tcp accept * *"));
        String agentArguments = "rules=" + rules;

        double[] plainLatency = new double[rounds];
        double[] agentLatency = new double[rounds];
        double[] plainBandwidth = new double[rounds];
        double[] agentBandwidth = new double[rounds];
        for (int round = 0; round < rounds; round++) {
            List<String> plain;
            List<String> agent;
            if (round % 2 == 0) {
                plain = ChildJvm.run(pin, agentJar, null, PlainSocketWorkload.class, roundTrips, streamMib);
                agent = ChildJvm.run(pin, agentJar, agentArguments, PlainSocketWorkload.class, roundTrips, streamMib);
            } else {
                agent = ChildJvm.run(pin, agentJar, agentArguments, PlainSocketWorkload.class, roundTrips, streamMib);
                plain = ChildJvm.run(pin, agentJar, null, PlainSocketWorkload.class, roundTrips, streamMib);
            }
            plainLatency[round] = ChildJvm.value(plain, "pingpong_us");
            agentLatency[round] = ChildJvm.value(agent, "pingpong_us");
            plainBandwidth[round] = ChildJvm.value(plain, "stream_mbps");
            agentBandwidth[round] = ChildJvm.value(agent, "stream_mbps");
            System.err.printf("round %2d: plain %.1f us %.0f MB/s, agent %.1f us %.0f MB/s%n", round + 1,
                    plainLatency[round], plainBandwidth[round], agentLatency[round], agentBandwidth[round]);
        }
        Files.delete(rules);

        System.out.printf("Agent overhead: a plain java.net.Socket program without the agent and under a tcp rule,"
                + " %d alternating rounds, a JVM per run (CPUs: %s), Java %s%n%n", rounds, cpus, Runtime.version());
        System.out.printf("%-22s %-14s %16s %16s %8s  %s%n", "test", "size", "no agent", "agent, tcp rule", "ratio",
                "(95% interval)");
        row("latency (round trip)", "64 B", "us", false, plainLatency, agentLatency);
        row("bandwidth (stream)", "64 KiB writes", "MB/s", true, plainBandwidth, agentBandwidth);
    }

    private static void row(String test, String size, String unit, boolean higherIsBetter, double[] plain,
                            double[] agent) {
        PairedComparison.Result result = new PairedComparison.Result(test, size, unit, higherIsBetter, plain, agent);
        double[] interval = result.ratioInterval();
        System.out.printf("%-22s %-14s %11.1f %-4s %11.1f %-4s %8.3f  [%.3f, %.3f]%n", test, size, result.baselineMedian(),
                unit, result.candidateMedian(), unit, result.ratio(), interval[0], interval[1]);
    }
}
