package io.extsock.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The first switch to IWARP_MODE in a fresh JVM: {@link FirstSwitchSample} in a JVM of its own,
 * N times (alternating with plain {@code java.net.Socket} samples, the JDK's own cold start, unless
 * {@code --iwarp-only}), and each figure's median with a 95% bootstrap interval of that median.
 * Every sample is a JVM that has never run extsock's code: what a user's program pays on its
 * first connection, and what a warm benchmark never shows.
 *
 * <p>Figures, in milliseconds: {@code open-ms} (both sockets made, IWARP_MODE set, the server
 * bound), {@code first-echo-ms} (from before the client's connect to the echoed octet) and
 * their sum; {@code first-echo-cpu-ms}, the CPU time all the JVM's threads ran meanwhile (the
 * figure to compare two builds by on a machine that others share); with {@code --jfr}, the JFR {@code IwarpConnected} negotiation durations too (JFR
 * slows the switch it measures: compare them with each other, not with the runs without).
 *
 * <p>Options: {@code --samples N} (20 unless told), {@code --jfr}, {@code --iwarp-only}, and
 * {@code --jvm-option OPTION} (repeatable, passed to each sample's JVM, e.g.
 * {@code -XX:SharedArchiveFile=first-switch.jsa} or {@code -XX:TieredStopAtLevel=1}).
 *
 * <p>Run: {@code java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*'
 * io.extsock.bench.FirstSwitchColdStart [--samples N] [--jfr] [--iwarp-only] [--jvm-option OPTION]...}
 */
public final class FirstSwitchColdStart {

    static final int DEFAULT_SAMPLES = 20;
    static final String TOTAL = "open+first-echo-ms";

    private FirstSwitchColdStart() {
    }

    /** What to run: how many samples of each kind, with JFR or not, and the sample JVMs' options. */
    record Plan(int samples, boolean jfr, boolean plainToo, List<String> jvmOptions) {

        static Plan of(String[] args) {
            int samples = DEFAULT_SAMPLES;
            boolean jfr = false;
            boolean plainToo = true;
            List<String> jvmOptions = new ArrayList<>();
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--samples" -> samples = Integer.parseInt(valueAfter(args, i++));
                    case "--jfr" -> jfr = true;
                    case "--iwarp-only" -> plainToo = false;
                    case "--jvm-option" -> jvmOptions.add(valueAfter(args, i++));
                    default -> throw new IllegalArgumentException("unknown option " + args[i]
                            + " (expected --samples N, --jfr, --iwarp-only, --jvm-option OPTION)");
                }
            }
            if (samples < 1) {
                throw new IllegalArgumentException("--samples must be at least 1, not " + samples);
            }
            return new Plan(samples, jfr, plainToo, List.copyOf(jvmOptions));
        }

        private static String valueAfter(String[] args, int i) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            return args[i + 1];
        }
    }

    public static void main(String[] args) throws Exception {
        Plan plan = Plan.of(args);
        System.out.printf("first switch in a fresh JVM: %d samples%s, %s%s%n", plan.samples(),
                plan.plainToo() ? " of each, alternating" : "", Runtime.version(),
                plan.jvmOptions().isEmpty() ? "" : ", JVM options " + String.join(" ", plan.jvmOptions()));
        Map<String, List<Double>> iwarp = new LinkedHashMap<>();
        Map<String, List<Double>> plain = new LinkedHashMap<>();
        for (int i = 0; i < plan.samples(); i++) {
            add(iwarp, sample(plan, "iwarp"));
            if (plan.plainToo()) {
                add(plain, sample(plan, "plain"));
            }
        }
        System.out.printf("%-26s %-10s %10s %-22s %10s %10s%n", "figure (ms)", "sockets", "median", " (95% interval)",
                "min", "max");
        print("IWARP_MODE", iwarp);
        print("java.net", plain);
    }

    /** One fresh JVM's figures, by name. */
    static Map<String, Double> sample(Plan plan, String kind) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(plan.jvmOptions());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(FirstSwitchSample.class.getName());
        command.add(kind);
        if (plan.jfr() && kind.equals("iwarp")) {
            command.add("jfr");
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " exited with " + process.exitValue() + ":\n" + out);
        }
        return figures(out.lines().toList());
    }

    /** The {@code NAME VALUE} lines of a sample's output, and the sum of its open and first-echo times. */
    static Map<String, Double> figures(List<String> lines) {
        Map<String, Double> figures = new LinkedHashMap<>();
        for (String line : lines) {
            String[] parts = line.trim().split(" ");
            if (parts.length == 2 && parts[0].endsWith("-ms")) {
                figures.put(parts[0], Double.parseDouble(parts[1]));
            }
        }
        Double open = figures.get(FirstSwitchSample.OPEN);
        Double echo = figures.get(FirstSwitchSample.FIRST_ECHO);
        if (open == null || echo == null) {
            throw new IllegalStateException("a sample printed no " + FirstSwitchSample.OPEN + " or "
                    + FirstSwitchSample.FIRST_ECHO + ": " + lines);
        }
        figures.put(TOTAL, open + echo);
        return figures;
    }

    private static void add(Map<String, List<Double>> all, Map<String, Double> sample) {
        sample.forEach((name, value) -> all.computeIfAbsent(name, n -> new ArrayList<>()).add(value));
    }

    private static void print(String sockets, Map<String, List<Double>> all) {
        all.forEach((name, values) -> {
            double[] samples = values.stream().mapToDouble(Double::doubleValue).toArray();
            double[] interval = medianInterval(samples, 43);
            System.out.printf("%-26s %-10s %10.1f  (%7.1f .. %7.1f) %10.1f %10.1f%n", name, sockets,
                    Stats.median(samples), interval[0], interval[1], Stats.percentile(samples, 0),
                    Stats.percentile(samples, 100));
        });
    }

    /** A 95% bootstrap interval of the samples' median: how far it could move by chance. */
    static double[] medianInterval(double[] samples, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] medians = new double[2000];
        double[] resample = new double[samples.length];
        for (int b = 0; b < medians.length; b++) {
            for (int i = 0; i < samples.length; i++) {
                resample[i] = samples[random.nextInt(samples.length)];
            }
            medians[b] = Stats.median(resample);
        }
        return new double[] {Stats.percentile(medians, 2.5), Stats.percentile(medians, 97.5)};
    }
}
