package io.extsock.bench;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * One sample of {@link FirstSwitchColdStart}: the first connection of a fresh JVM. It opens an
 * {@code ExtendedServerSocket} and an {@code ExtendedSocket} on 127.0.0.1, both in IWARP_MODE (or
 * plain {@code java.net.Socket}s with {@code plain}, the baseline), and echoes one octet; it prints
 * the time from just before the client's connect to the echoed octet's arrival. Nothing of extsock
 * is touched before that connect, so whatever its first use costs (class loading, static
 * initialisers, the engine's start, interpreted code) is inside the figure.
 *
 * <p>With {@code jfr}, a recording of extsock's {@code IwarpConnected} events alone runs around the
 * connection (started before the clock, so JFR's own start is outside it), and the client's and
 * the server's negotiation durations are printed too. JFR in the JVM makes the first switch slower
 * than it is without: those figures are the ones a user's recording shows, the clock's figure
 * without {@code jfr} is the one an application sees.
 *
 * <p>Prints {@code open-ms X} (creating both sockets, setting IWARP_MODE, binding the server),
 * {@code first-echo-ms X}, {@code first-echo-cpu-ms X} (the CPU time every thread of the JVM ran
 * meanwhile, on Linux: what the first switch costs, whatever else shares the CPUs) and, with {@code jfr}, {@code initiator-negotiation-ms X} and
 * {@code responder-negotiation-ms X}.
 *
 * <p>Run: {@code java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*'
 * io.extsock.bench.FirstSwitchSample [iwarp|plain] [jfr]}
 */
public final class FirstSwitchSample {

    static final String OPEN = "open-ms";
    static final String FIRST_ECHO = "first-echo-ms";
    static final String FIRST_ECHO_CPU = "first-echo-cpu-ms";
    static final String NEGOTIATION_INITIATOR = "initiator-negotiation-ms";
    static final String NEGOTIATION_RESPONDER = "responder-negotiation-ms";
    private static final String CONNECTED_EVENT = "io.extsock.IwarpConnected";

    private FirstSwitchSample() {
    }

    public static void main(String[] args) throws Exception {
        boolean iwarp = true;
        boolean jfr = false;
        for (String arg : args) {
            switch (arg) {
                case "iwarp" -> iwarp = true;
                case "plain" -> iwarp = false;
                case "jfr" -> jfr = true;
                default -> throw new IllegalArgumentException("expected iwarp, plain or jfr, not " + arg);
            }
        }
        Recording recording = jfr ? startRecording() : null;
        double[] millis = firstEcho(iwarp);
        System.out.printf("%s %.3f%n", OPEN, millis[0]);
        System.out.printf("%s %.3f%n", FIRST_ECHO, millis[1]);
        if (millis[2] >= 0) {
            System.out.printf("%s %.3f%n", FIRST_ECHO_CPU, millis[2]);
        }
        if (recording != null) {
            printNegotiations(recording);
        }
        System.out.flush();
        // Non-daemon engine threads, if any, must not keep the sample's JVM alive.
        System.exit(0);
    }

    /**
     * The first connection of this JVM: milliseconds to open both sockets (the server's bound,
     * both in IWARP_MODE), then from before the connect to the echoed octet.
     */
    static double[] firstEcho(boolean iwarp) throws IOException, InterruptedException {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        long opening = System.nanoTime();
        try (ServerSocket server = iwarp ? new ExtendedServerSocket() : new ServerSocket()) {
            if (iwarp) {
                server.setOption(IwarpOptions.IWARP_MODE, true);
            }
            server.bind(new InetSocketAddress(loopback, 0));
            IOException[] serverFailure = new IOException[1];
            Thread echo = new Thread(() -> {
                try (Socket accepted = server.accept()) {
                    InputStream in = accepted.getInputStream();
                    int octet = in.read();
                    accepted.getOutputStream().write(octet);
                    in.read();  // the client's close
                } catch (IOException e) {
                    serverFailure[0] = e;
                }
            }, "first-switch-echo");
            echo.start();
            long connecting;
            long echoed;
            long cpuConnecting;
            long cpuEchoed;
            try (Socket client = iwarp ? new ExtendedSocket() : new Socket()) {
                if (iwarp) {
                    client.setOption(IwarpOptions.IWARP_MODE, true);
                }
                cpuConnecting = processCpuNanos();
                connecting = System.nanoTime();
                client.connect(new InetSocketAddress(loopback, server.getLocalPort()));
                client.getOutputStream().write(42);
                int back = client.getInputStream().read();
                echoed = System.nanoTime();
                cpuEchoed = processCpuNanos();
                if (back != 42) {
                    throw new IOException("the echo sent back " + back + ", not 42");
                }
            }
            echo.join();
            if (serverFailure[0] != null) {
                throw serverFailure[0];
            }
            double cpu = cpuConnecting < 0 || cpuEchoed < 0 ? -1 : (cpuEchoed - cpuConnecting) / 1e6;
            return new double[] {(connecting - opening) / 1e6, (echoed - connecting) / 1e6, cpu};
        }
    }

    /**
     * The CPU time all of this JVM's threads have run, in nanoseconds, from Linux's per-thread
     * scheduler statistics ({@code /proc/self/task/N/schedstat}): the JIT's compilers and the
     * engine's threads too, and unlike the wall clock, not stretched by other processes that
     * share the CPUs. -1 where there are none to read.
     */
    static long processCpuNanos() {
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            long nanos = 0;
            for (Path task : tasks) {
                try {
                    String stat = Files.readString(task.resolve("schedstat"));
                    nanos += Long.parseLong(stat.substring(0, stat.indexOf(' ')));
                } catch (NoSuchFileException ended) {
                    // a thread that ended meanwhile: its time is no longer counted anywhere
                }
            }
            return nanos;
        } catch (IOException | RuntimeException unavailable) {
            return -1;
        }
    }

    private static Recording startRecording() {
        Recording recording = new Recording();
        recording.enable(CONNECTED_EVENT).withoutThreshold();
        recording.start();
        return recording;
    }

    private static void printNegotiations(Recording recording) throws IOException {
        recording.stop();
        Path file = Files.createTempFile("first-switch", ".jfr");
        try {
            recording.dump(file);
            for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
                if (event.getEventType().getName().equals(CONNECTED_EVENT)) {
                    String name = event.getString("role").equals("initiator") ? NEGOTIATION_INITIATOR
                            : NEGOTIATION_RESPONDER;
                    System.out.printf("%s %.3f%n", name, event.getLong("negotiationDuration") / 1e6);
                }
            }
        } finally {
            recording.close();
            Files.deleteIfExists(file);
        }
    }
}
