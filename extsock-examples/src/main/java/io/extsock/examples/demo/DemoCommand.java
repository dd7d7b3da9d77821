package io.extsock.examples.demo;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.examples.cli.Background;
import io.extsock.examples.cli.RemoteBuffers;
import io.extsock.examples.cli.ResultTable;
import io.extsock.examples.cli.SizeConverter;
import io.extsock.examples.cli.Sockets;
import io.extsock.examples.cli.Units;
import io.extsock.examples.cli.UserErrorHandler;
import io.extsock.examples.cli.UserErrors;
import io.extsock.examples.echo.StreamEcho;
import io.extsock.examples.file.FileMethod;
import io.extsock.examples.file.FileReceiver;
import io.extsock.examples.file.FileSender;
import io.extsock.examples.file.Progress;
import io.extsock.examples.perf.AlternatingRounds;
import io.extsock.examples.perf.AlternatingRounds.Row;
import io.extsock.examples.perf.MedianInterval;
import io.extsock.verbs.Access;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.RemoteBuffer;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code extsock demo}: what extsock does, in one process on loopback, in seconds. The same
 * stream echo code ({@link StreamEcho}, written against {@code java.net.Socket}) runs over plain
 * TCP, passthrough ExtendedSocket and IWARP_MODE; then RDMA Write and Read of a registered
 * buffer, and a file transfer by each IWARP_MODE method. Every byte is checked; the exit code is 0 only if
 * all of them were right.
 */
@Command(name = "demo", description = "Shows what extsock does, on loopback in one process: the same stream echo code over plain "
                + "TCP, passthrough ExtendedSocket and IWARP_MODE, RDMA Write and Read of a registered buffer, and a "
                + "file transfer by each method; verifies every byte and prints a table.")
public final class DemoCommand implements Callable<Integer> {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    /** The most --size takes: the RDMA steps register direct buffers of that size. */
    private static final long MAX_SIZE = 1L << 30;

    /** What the table shows, in three plain sentences under it. */
    static final List<String> EXPLANATION = List.of(
            "Passthrough is an ExtendedSocket left in its default mode: plain TCP on the wire, as java.net.Socket"
                    + " sends it, so a program can use it in place of java.net.Socket unchanged.",
            "IWARP_MODE is the same socket switched to a software iWARP protocol (MPA, DDP, RDMAP) over that TCP"
                    + " connection: the program's stream reads and writes are unchanged, and each side gains registered"
                    + " memory, RDMA Writes and Reads, and completions.",
            "The RDMA rows move a registered buffer into and out of the peer's memory with one-sided Writes and Reads"
                    + " that the peer's program takes no part in, and the file rows move a file by stream, by RDMA Write"
                    + " and by RDMA Read, each checked byte for byte.");

    @Spec
    public CommandSpec spec;

    @Option(names = "--size", paramLabel = "BYTES", defaultValue = "64M", converter = SizeConverter.class,
            description = "Bytes per step (default: 64M; suffixes K, M, G).")
    public long size;

    @Option(names = "--warm-up", paramLabel = "N", defaultValue = "" + DEFAULT_WARM_UP,
            description = "Unmeasured runs of each stream echo before the measured ones (default: "
                    + DEFAULT_WARM_UP + "; 0 with --runs 1 shows a cold start).")
    public int warmUp;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "" + DEFAULT_RUNS,
            description = "Measured runs of each stream echo, in alternating order; each row shows its median run "
                    + "(default: " + DEFAULT_RUNS + ", the fewest that give a ratio a 95%% interval).")
    public int runs;

    /**
     * Echo runs before the measured ones, by default: what it takes for the JIT to be done with
     * IWARP_MODE's engine. Its first connections in a JVM run while C2 compiles it (1.4-1.6 s of a
     * CPU in all, against 0.2 s for plain TCP's echo, nearly all of it within eight connections of
     * 64 MiB), and code compiled late runs the connections after it at a rate still below the
     * steady one: IWARP_MODE's median ratio to plain TCP read 0.67-0.77 after 8 warm-up runs,
     * 0.81-0.90 after 16 and 0.86-0.92 after 24 (two cores, a few demos each).
     */
    public static final int DEFAULT_WARM_UP = 16;

    /**
     * Measured echo runs of each kind of socket, by default. One run a kind measured how the
     * machine happened to be at that moment: IWARP_MODE's single run read 0.58-0.88 of plain
     * TCP's in ten demos of one build.
     */
    public static final int DEFAULT_RUNS = MedianInterval.MIN_VALUES;

    /** One step of the demo: runs and checks, timing only the transfer itself. */
    private interface Step {
        Checked run() throws Exception;
    }

    /** What a step found, and how long its transfer took. */
    private record Checked(boolean verified, long nanos) {
        static Checked since(long start, boolean verified) {
            return new Checked(verified, System.nanoTime() - start);
        }
    }

    private final ResultTable table = new ResultTable("what ran", "bytes", "time", "throughput", "verified");
    private boolean allVerified = true;

    @Override
    public Integer call() throws Exception {
        if (size < 1 || size > MAX_SIZE) {
            throw new ParameterException(spec.commandLine(), "--size must be from 1 B to 1 GiB: " + size);
        }
        if (warmUp < 0) {
            throw new ParameterException(spec.commandLine(), "--warm-up must not be negative: " + warmUp);
        }
        if (runs < 1) {
            throw new ParameterException(spec.commandLine(), "--runs must be at least 1: " + runs);
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println("extsock demo: on loopback, in one process, " + Units.bytes(size) + " per step, every byte checked");
        out.println(warmUp == 0 && runs == 1 ? "each stream echo measured cold, on its first connection (--warm-up, --runs)"
                : "stream echoes: " + warmUp + " unmeasured runs of each (the JIT's warm-up), then " + runs
                        + " measured in alternating order, each row its median run (--warm-up, --runs)");
        out.println();
        out.flush();
        String echoRatios = echoes();
        try (IwarpPair pair = IwarpPair.open()) {
            step("RDMA Write of a registered buffer", () -> rdmaWrite(pair));
            step("RDMA Read of a registered buffer", () -> rdmaRead(pair));
        }
        Path directory = Files.createTempDirectory("extsock-demo");
        try {
            Path source = directory.resolve("demo.bin");
            writeRandomFile(source);
            for (FileMethod method : FileMethod.values()) {
                if (method.plainTcpOnly()) {
                    continue;  // the demo's transfers run in IWARP_MODE; perf compare has the plain baseline
                }
                step("file transfer by " + method + ", SHA-256 checked", () -> transfer(source, method));
            }
        } finally {
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(file);
                }
            }
        }
        table.print(out);
        out.println();
        if (echoRatios != null) {
            out.println(echoRatios);
            out.println();
        }
        EXPLANATION.forEach(out::println);
        out.println();
        out.println(allVerified ? "all verified" : "VERIFICATION FAILED");
        out.flush();
        return allVerified ? 0 : UserErrorHandler.FAILURE;
    }

    /** Runs a step; one that throws is reported and counts as not verified. */
    private void step(String what, Step step) {
        Checked checked;
        try {
            checked = step.run();
        } catch (Exception e) {
            reportFailure(what, e);
            checked = new Checked(false, 0);
        }
        addRow(what, checked);
    }

    private void reportFailure(String what, Exception e) {
        spec.commandLine().getErr().println("extsock demo: " + what + ": " + UserErrors.message(e));
        spec.commandLine().getErr().flush();
    }

    private void addRow(String what, Checked checked) {
        long elapsed = checked.nanos();
        table.add(what, Units.bytes(size), checked.verified() ? Units.seconds(elapsed) : "-",
                checked.verified() ? Units.throughput(size, elapsed) : "-", checked.verified() ? "yes" : "NO");
        allVerified &= checked.verified();
    }

    /** One kind of socket the stream echo runs over: {@code servers} and {@code clients} make them. */
    private record EchoVariant(String what, Callable<? extends ServerSocket> servers,
                               Callable<? extends Socket> clients, boolean iwarp) {
    }

    /** An echo whose bytes did not all come back as sent. */
    private static final class EchoMismatch extends IOException {
        EchoMismatch() {
            super("the echoed bytes differ from those sent");
        }
    }

    /**
     * The stream echo over plain TCP, passthrough ExtendedSocket and IWARP_MODE, on new sockets
     * every run, in alternating rounds ({@link AlternatingRounds}): {@link #warmUp} unmeasured,
     * then {@link #runs} measured. Adds each one's row (its median run) and returns the ratios of
     * their throughput to plain TCP's, or null if an echo failed (its row then says NO, and the
     * others, stopped with it, "stopped").
     */
    private String echoes() {
        List<EchoVariant> variants = List.of(
                new EchoVariant("stream echo, java.net.Socket", ServerSocket::new, Socket::new, false),
                new EchoVariant("stream echo, ExtendedSocket (passthrough)", ExtendedServerSocket::new,
                        ExtendedSocket::new, false),
                new EchoVariant("stream echo, ExtendedSocket (IWARP_MODE)", ExtendedServerSocket::new,
                        ExtendedSocket::new, true));
        List<Row<Long>> rows = new ArrayList<>();
        String[] failed = {"stream echo"};
        for (EchoVariant variant : variants) {
            rows.add(new Row<>(() -> {
                try {
                    Checked run = echo(variant.servers().call(), variant.clients().call(), variant.iwarp());
                    if (!run.verified()) {
                        throw new EchoMismatch();
                    }
                    return run.nanos();
                } catch (Exception e) {
                    failed[0] = variant.what();
                    throw e;
                }
            }, nanos -> size / (double) nanos, rows.isEmpty() ? null : rows.get(0), "java.net.Socket"));
        }
        try {
            AlternatingRounds.warmUp(rows, warmUp);
            AlternatingRounds.run(rows, runs);
        } catch (Exception e) {
            reportFailure(failed[0], e);
            for (EchoVariant variant : variants) {
                if (variant.what().equals(failed[0])) {
                    addRow(variant.what(), new Checked(false, 0));
                } else {
                    table.add(variant.what(), Units.bytes(size), "-", "-", "stopped");
                }
            }
            allVerified = false;
            return null;
        }
        for (int k = 0; k < variants.size(); k++) {
            addRow(variants.get(k).what(), new Checked(true, Math.round(rows.get(k).median(Long::doubleValue))));
        }
        String which = runs == 1 ? "one run each"
                : "the median of the " + runs + " runs' ratios" + (runs >= MedianInterval.MIN_VALUES
                        ? ", with its 95% interval" : "");
        return "stream echo's throughput against java.net.Socket's (" + which + "): passthrough "
                + rows.get(1).ratio().cell() + ", IWARP_MODE " + rows.get(2).ratio().cell();
    }

    /** The same {@link StreamEcho} code on both ends, whatever the sockets. */
    private Checked echo(ServerSocket server, Socket client, boolean iwarp) throws Exception {
        try (server; client) {
            if (iwarp) {
                server.setOption(IwarpOptions.IWARP_MODE, true);
                client.setOption(IwarpOptions.IWARP_MODE, true);  // switches right after connect
                Sockets.noDelayForIwarp(client);
            }
            server.bind(new InetSocketAddress(LOOPBACK, 0));
            Future<Void> echoed = Background.start("demo echo server", () -> {
                try (Socket accepted = server.accept()) {
                    if (iwarp) {
                        Sockets.noDelayForIwarp(accepted);
                    }
                    StreamEcho.echo(accepted);
                }
                return null;
            });
            client.connect(server.getLocalSocketAddress());
            long start = System.nanoTime();
            boolean verified = StreamEcho.sendAndVerify(client, size, 64 * 1024, 42);
            Checked checked = Checked.since(start, verified);
            echoed.get(60, TimeUnit.SECONDS);
            return checked;
        }
    }

    /** The client RDMA-Writes into the server's registered buffer; the server's application does nothing. */
    private Checked rdmaWrite(IwarpPair pair) throws Exception {
        try (MemoryRegion target = pair.server.iwarp().register(ByteBuffer.allocateDirect((int) size),
                EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
             MemoryRegion source = pair.client.iwarp().register(random((int) size, 1), Set.of())) {
            RemoteBuffer where = pair.advertise(target);
            long start = System.nanoTime();
            RdmaCopy.write(pair.client.iwarp(), List.of(source), List.of(where), done -> { });
            pair.fence();
            long end = System.nanoTime();
            return new Checked(target.buffer().mismatch(source.buffer()) < 0, end - start);
        }
    }

    /** The client RDMA-Reads the server's registered buffer. */
    private Checked rdmaRead(IwarpPair pair) throws Exception {
        try (MemoryRegion exposed = pair.server.iwarp().register(random((int) size, 2), EnumSet.of(Access.REMOTE_READ));
             MemoryRegion sink = pair.client.iwarp().register(ByteBuffer.allocateDirect((int) size),
                     EnumSet.of(Access.LOCAL_WRITE))) {
            RemoteBuffer where = pair.advertise(exposed);
            long start = System.nanoTime();
            RdmaCopy.read(pair.client.iwarp(), List.of(sink), List.of(where), done -> { });
            long end = System.nanoTime();
            return new Checked(sink.buffer().mismatch(exposed.buffer()) < 0, end - start);
        }
    }

    /** {@code extsock file serve} and {@code get}'s own code, in this process. */
    private Checked transfer(Path source, FileMethod method) throws Exception {
        try (ExtendedServerSocket server = new ExtendedServerSocket()) {
            server.setOption(IwarpOptions.IWARP_MODE, true);
            server.bind(new InetSocketAddress(LOOPBACK, 0));
            FileSender sender = new FileSender(source, true);
            Future<FileSender.Outcome> sent = Background.start("demo file server", () -> {
                try (Socket accepted = server.accept()) {
                    Sockets.noDelayForIwarp(accepted);
                    return sender.serve(accepted);
                }
            });
            Path target = source.resolveSibling("received-by-" + method + ".bin");
            FileReceiver receiver = new FileReceiver(target, false,
                    (name, length) -> new Progress(spec.commandLine().getErr(), name, length, Progress.Mode.NEVER));
            FileReceiver.Outcome received;
            try (ExtendedSocket client = new ExtendedSocket()) {
                client.setOption(IwarpOptions.IWARP_MODE, true);
                Sockets.noDelayForIwarp(client);
                client.connect(server.getLocalSocketAddress());
                received = receiver.receive(client, method);
            }
            FileSender.Outcome outcome = sent.get(60, TimeUnit.SECONDS);
            // Beyond what get checked itself: the saved file really is the source, byte for byte.
            boolean verified = outcome != null && outcome.clientVerified()
                    && java.util.Arrays.equals(received.sha256(), outcome.sha256())
                    && Files.mismatch(target, source) < 0;
            return new Checked(verified, received.transferNanos() + received.verifyNanos());
        }
    }

    private void writeRandomFile(Path file) throws IOException {
        SplittableRandom random = new SplittableRandom(3);
        ByteBuffer chunk = ByteBuffer.allocate(1 << 20);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long left = size; left > 0; left -= chunk.limit()) {
                chunk.clear().limit((int) Math.min(chunk.capacity(), left));
                random.nextBytes(chunk.array());
                while (chunk.hasRemaining()) {
                    channel.write(chunk);
                }
            }
        }
    }

    private static ByteBuffer random(int length, long seed) {
        byte[] bytes = new byte[length];
        new SplittableRandom(seed).nextBytes(bytes);
        return ByteBuffer.allocateDirect(length).put(bytes).flip();
    }

    /** Two connected ExtendedSockets in IWARP_MODE, the streams on (for descriptors and fences). */
    private static final class IwarpPair implements AutoCloseable {
        final ExtendedSocket client;
        final ExtendedSocket server;

        private IwarpPair(ExtendedSocket client, ExtendedSocket server) {
            this.client = client;
            this.server = server;
        }

        static IwarpPair open() throws Exception {
            try (ExtendedServerSocket listener = new ExtendedServerSocket()) {
                listener.setOption(IwarpOptions.IWARP_MODE, true);
                listener.bind(new InetSocketAddress(LOOPBACK, 0));
                Future<ExtendedSocket> accepted = Background.start("demo accept", () -> {
                    ExtendedSocket socket = listener.accept();
                    Sockets.noDelayForIwarp(socket);
                    socket.iwarp();  // an accepted socket switches on first use
                    return socket;
                });
                ExtendedSocket client = new ExtendedSocket();
                client.setOption(IwarpOptions.IWARP_MODE, true);
                Sockets.noDelayForIwarp(client);
                client.connect(listener.getLocalSocketAddress());
                return new IwarpPair(client, accepted.get(30, TimeUnit.SECONDS));
            }
        }

        /** The server sends a region's 16-byte descriptor over the stream, as an application would. */
        RemoteBuffer advertise(MemoryRegion region) throws IOException {
            RemoteBuffers.send(server.getOutputStream(), region.remote());
            return RemoteBuffers.receive(client.getInputStream());
        }

        /** A byte on the stream after the Writes: when the server reads it, all of them landed. */
        void fence() throws IOException {
            client.getOutputStream().write(1);
            if (server.getInputStream().read() != 1) {
                throw new java.io.EOFException("the fence did not arrive");
            }
        }

        @Override
        public void close() throws IOException {
            client.close();
            server.close();
        }
    }
}
