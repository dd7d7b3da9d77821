package io.extsock.testkit.siw;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Linux soft-iWARP (siw, the kernel's own iWARP) with rdma-core's tools in a QEMU guest, as a
 * test peer that nobody here wrote. {@link #boot()} builds the guest if needed (the scripts in
 * {@code extsock-testkit/siw-guest}, shipped in this jar), boots it and waits until it is
 * ready; {@link #close()} stops it by its PID. Anything that keeps the guest from coming up is
 * an {@link IOException} that says why: a test that needs the guest fails, it never skips.
 *
 * <p>The guest reaches nothing; the host reaches it only through forwards on 127.0.0.1:
 * {@link #rpingPort()} the guest's standing {@code rping -s -P} (rping's default 64-byte
 * buffer), {@link #largeRpingPort()} a second one with {@code -S 65535}, the command shell that
 * {@link #exec(String)} uses, and the relay behind {@link #openReverseRelay(int)}.
 *
 * <p>Never probe a siw port with a bare connect-and-close: siw drops its listener and the port
 * is gone until the guest reboots. {@link #awaitListening(int)} reads the guest's socket table
 * instead. A peer that makes siw reject its ready-to-receive frame can leave the guest's iWARP
 * connection manager dead (a kernel BUG in iw_cm): {@link #diagnostics()} shows it.
 */
public final class SiwGuest implements AutoCloseable {

    /** The guest's address on its virtual network. */
    public static final String GUEST_ADDRESS = "10.0.2.15";
    /** Guest ports, fixed by the guest's init; the host side of each forward is in {@link Ports}. */
    public static final int GUEST_RPING_PORT = 19999;
    public static final int GUEST_LARGE_RPING_PORT = 19998;
    public static final int GUEST_CONTROL_PORT = 2323;
    public static final int GUEST_RELAY_PORT = 20000;
    /** Where an open {@link ReverseRelay} listens in the guest for the guest's client. */
    public static final int GUEST_RELAY_CLIENT_PORT = 7000;

    private static final String READY = "SIW-GUEST READY";
    private static final String FAILED = "SIW-GUEST FAILED";
    private static final String EXIT_MARK = "@@siw-guest-exit ";
    private static final String RESOURCES = "/io/extsock/testkit/siw/guest/";
    private static final List<String> SCRIPTS = List.of("build.sh", "boot.sh", "exec.sh", "guest-init.sh", "README.md");

    /**
     * The host ports (all on 127.0.0.1) forwarded to the guest.
     *
     * @param rping      to the standing {@code rping -s -P} with the default 64-byte buffer
     * @param largeRping to the standing {@code rping -s -P -S 65535}
     * @param control    to the guest's command shell
     * @param relay      to the guest's end of a {@link ReverseRelay}
     */
    public record Ports(int rping, int largeRping, int control, int relay) {
        /** 19999, 19998, 10023, 20000. */
        public static final Ports DEFAULT = new Ports(19999, 19998, 10023, 20000);
    }

    /** What a command printed (standard output and error together) and its exit status. */
    public record ExecResult(int exitCode, String output) {
        public boolean succeeded() {
            return exitCode == 0;
        }
    }

    private final Process qemu;
    private final Ports ports;
    private final Path run;
    private final Thread shutdownHook;
    private volatile boolean closed;

    private SiwGuest(Process qemu, Ports ports, Path run) {
        this.qemu = qemu;
        this.ports = ports;
        this.run = run;
        this.shutdownHook = new Thread(this::stopQuietly, "siw-guest-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Builds the guest if needed, boots it on the {@link Ports#DEFAULT default ports} and waits until it is ready. */
    public static SiwGuest boot() throws IOException, InterruptedException {
        return boot(Ports.DEFAULT);
    }

    /**
     * Builds the guest if needed, boots it and waits until it is ready: siw is up, the
     * in-guest self test passed, both rping servers and the command shell listen. Refuses to
     * start when a forwarded host port is taken, naming who holds it.
     */
    public static SiwGuest boot(Ports ports) throws IOException, InterruptedException {
        return boot(ports, java.util.Map.of(), java.util.Map.of());
    }

    /**
     * As {@link #boot(Ports)}, with host directories shared read-only into the guest, each at
     * {@code /mnt/TAG} (boot.sh's {@code SIWGUEST_SHARES}: a JDK and the built classes, for the
     * guest to run the project's JVM programs), and more host ports forwarded to guest ports.
     *
     * @param shares   by tag (lower-case letters and digits), the host directory
     * @param forwards by host port (on 127.0.0.1), the guest port it reaches
     */
    public static SiwGuest boot(Ports ports, java.util.Map<String, Path> shares, java.util.Map<Integer, Integer> forwards)
            throws IOException, InterruptedException {
        build();
        Path scripts = scripts();
        Path run = Files.createDirectories(cache().resolve("run"));
        Path qemuOutput = run.resolve("qemu.out");
        ProcessBuilder builder = new ProcessBuilder("bash", scripts.resolve("boot.sh").toString())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(qemuOutput.toFile());
        builder.environment().put("SIWVM_CACHE", cache().toString());
        builder.environment().put("SIWGUEST_RPING_PORT", Integer.toString(ports.rping()));
        builder.environment().put("SIWGUEST_LARGE_RPING_PORT", Integer.toString(ports.largeRping()));
        builder.environment().put("SIWGUEST_CONTROL_PORT", Integer.toString(ports.control()));
        builder.environment().put("SIWGUEST_RELAY_PORT", Integer.toString(ports.relay()));
        builder.environment().put("SIWGUEST_OWNER_PID", Long.toString(ProcessHandle.current().pid()));
        StringBuilder shared = new StringBuilder();
        shares.forEach((tag, directory) -> shared.append(tag).append('=').append(directory.toAbsolutePath()).append(' '));
        if (!shares.isEmpty()) {
            builder.environment().put("SIWGUEST_SHARES", shared.toString().trim());
        }
        StringBuilder forwarded = new StringBuilder();
        forwards.forEach((host, guestPort) -> forwarded.append(host).append(':').append(guestPort).append(' '));
        if (!forwards.isEmpty()) {
            builder.environment().put("SIWGUEST_EXTRA_FWD", forwarded.toString().trim());
        }
        SiwGuest guest = new SiwGuest(builder.start(), ports, run);
        try {
            guest.awaitReady(Duration.ofSeconds(Long.getLong("extsock.siw.readyTimeout", 300)));
        } catch (IOException | InterruptedException | RuntimeException e) {
            guest.close();
            throw e;
        }
        return guest;
    }

    /**
     * Builds the guest image, or confirms it is up to date (about a second): runs this jar's
     * {@code build.sh}, which installs the Debian packages it needs and compiles siw.ko on the
     * first run (several minutes). The output goes to {@code build.log} in the cache.
     */
    public static void build() throws IOException, InterruptedException {
        Path log = Files.createDirectories(cache()).resolve("build.log");
        ProcessBuilder builder = new ProcessBuilder("bash", scripts().resolve("build.sh").toString())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("SIWVM_CACHE", cache().toString());
        Process process = builder.start();
        if (!process.waitFor(60, TimeUnit.MINUTES)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new IOException("building the siw guest took over 60 minutes (log " + log + "):\n" + tail(Files.readString(log), 30));
        }
        String output = Files.readString(log);
        if (process.exitValue() != 0) {
            throw new IOException("building the siw guest failed (" + scripts().resolve("build.sh") + " exit "
                    + process.exitValue() + ", log " + log + "):\n" + tail(output, 40));
        }
    }

    /** {@code $SIWVM_CACHE}, else {@code ~/.cache/extsock-siw-guest}: the image, the build's downloads, the running guest's files. */
    public static Path cache() {
        String configured = System.getenv("SIWVM_CACHE");
        return configured != null && !configured.isEmpty() ? Path.of(configured)
                : Path.of(System.getProperty("user.home"), ".cache", "extsock-siw-guest");
    }

    /** The host ports forwarded to this guest. */
    public Ports ports() {
        return ports;
    }

    /** The host port (127.0.0.1) of the guest's standing {@code rping -s -P}, rping's default 64-byte buffer. */
    public int rpingPort() {
        return ports.rping();
    }

    /** The host port (127.0.0.1) of the guest's standing {@code rping -s -P -S 65535}. */
    public int largeRpingPort() {
        return ports.largeRping();
    }

    /** QEMU's process id. */
    public long pid() {
        return qemu.pid();
    }

    /** Runs a shell command in the guest (busybox sh, standard input empty), within two minutes. */
    public ExecResult exec(String command) throws IOException {
        return exec(command, Duration.ofMinutes(2));
    }

    /**
     * Runs a shell command in the guest and returns its output (standard output and error) and
     * exit status. A command that is not done within {@code timeout} is an IOException with
     * what it printed so far. A command may start background processes if it redirects their
     * output ({@code cmd >/tmp/log 2>&1 &}).
     */
    public ExecResult exec(String command, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Socket socket = new Socket()) {
            try {
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), ports.control()), 10_000);
            } catch (IOException e) {
                throw new IOException("cannot reach the siw guest's command shell on 127.0.0.1:" + ports.control()
                        + (qemu.isAlive() ? "" : " (its QEMU has exited)") + ": " + e, e);
            }
            OutputStream out = socket.getOutputStream();
            out.write(("(\n" + command + "\n) </dev/null 2>&1\necho \"" + EXIT_MARK.trim() + " $?\"\nexit\n")
                    .getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            while (true) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    throw new SocketTimeoutException();
                }
                socket.setSoTimeout((int) Math.min(left, Integer.MAX_VALUE));
                int n = in.read(buffer);
                if (n < 0) {
                    break;
                }
                received.write(buffer, 0, n);
            }
            String text = received.toString(StandardCharsets.UTF_8);
            int mark = text.lastIndexOf(EXIT_MARK);
            if (mark < 0 || (mark > 0 && text.charAt(mark - 1) != '\n')) {
                throw new IOException("the siw guest's command shell (127.0.0.1:" + ports.control()
                        + ") ended without an exit status for: " + command + "\n" + text);
            }
            int exitCode = Integer.parseInt(text.substring(mark + EXIT_MARK.length()).trim());
            return new ExecResult(exitCode, text.substring(0, mark));
        } catch (SocketTimeoutException e) {
            throw new IOException("command in the siw guest not done after " + timeout.toSeconds() + " s: " + command);
        }
    }

    /** Runs a shell command in the guest and returns its output; a non-zero exit status is an IOException with that output. */
    public String execChecked(String command) throws IOException {
        ExecResult result = exec(command);
        if (!result.succeeded()) {
            throw new IOException("in the siw guest, `" + command + "` exited " + result.exitCode() + ":\n" + result.output());
        }
        return result.output();
    }

    /** Waits up to a minute until a TCP port listens in the guest. */
    public void awaitListening(int guestPort) throws IOException, InterruptedException {
        awaitListening(guestPort, Duration.ofMinutes(1));
    }

    /**
     * Waits until a TCP port listens in the guest, read from the guest's kernel tables: the
     * port itself is never tried (a siw listener does not survive a bare connect-and-close).
     */
    public void awaitListening(int guestPort, Duration timeout) throws IOException, InterruptedException {
        String local = String.format(Locale.ROOT, ":%04X", guestPort);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String table = execChecked("cat /proc/net/tcp /proc/net/tcp6");
            boolean listens = table.lines().map(String::trim).map(line -> line.split("\\s+"))
                    .anyMatch(f -> f.length > 3 && f[1].toUpperCase(Locale.ROOT).endsWith(local) && f[3].equals("0A"));
            if (listens) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("nothing listens on tcp/" + guestPort + " in the siw guest after "
                        + timeout.toSeconds() + " s\n" + diagnostics());
            }
            Thread.sleep(200);
        }
    }

    /**
     * Lets a client in the guest reach a server on the host (the guest itself reaches nothing):
     * a socat in the guest joins the host's connection on the relay port to a listener on
     * {@link ReverseRelay#guestAddress()}:{@link ReverseRelay#guestPort()}, and this JVM joins
     * that connection to {@code 127.0.0.1:hostServerPort}. One client connection per relay;
     * start the guest's client (e.g. {@code rping -c -a 10.0.2.15 -p 7000}) after this returns.
     */
    public ReverseRelay openReverseRelay(int hostServerPort) throws IOException, InterruptedException {
        String pid = execChecked("socat TCP-LISTEN:" + GUEST_RELAY_PORT + ",reuseaddr TCP-LISTEN:" + GUEST_RELAY_CLIENT_PORT
                + ",bind=" + GUEST_ADDRESS + ",reuseaddr </dev/null >/tmp/relay.log 2>&1 &\necho $!").trim();
        ReverseRelay relay = new ReverseRelay(this, pid);
        try {
            awaitListening(GUEST_RELAY_PORT);
            relay.join(ports.relay(), hostServerPort);
            awaitListening(GUEST_RELAY_CLIENT_PORT);
        } catch (IOException | InterruptedException | RuntimeException e) {
            relay.close();
            throw e;
        }
        return relay;
    }

    /** The console log so far (kernel messages and what the guest's init printed). */
    public String consoleLog() throws IOException {
        return Files.readString(run.resolve("console.log"), StandardCharsets.ISO_8859_1);
    }

    /** The guest's kernel log (dmesg). */
    public String dmesg() throws IOException {
        return execChecked("dmesg");
    }

    /**
     * What a failure message needs: the end of the console log, of the kernel log and of the
     * rping servers' logs. Never throws; what cannot be read is said so.
     */
    public String diagnostics() {
        StringBuilder text = new StringBuilder("\n--- siw guest (qemu pid " + qemu.pid() + (qemu.isAlive() ? "" : ", exited") + ")\n");
        try {
            text.append("--- console log, last lines:\n").append(tail(consoleLog(), 20)).append('\n');
        } catch (IOException e) {
            text.append("(no console log: ").append(e.getMessage()).append(")\n");
        }
        try {
            text.append(exec("echo '--- dmesg, last lines:'; dmesg | tail -25;"
                    + " for f in /tmp/rping-64.log /tmp/rping-65535.log /tmp/relay.log; do"
                    + " [ -f $f ] && { echo \"--- $f, last lines:\"; tail -8 $f; }; done", Duration.ofSeconds(30)).output());
        } catch (IOException e) {
            text.append("(no command shell: ").append(e.getMessage()).append(")\n");
        }
        return text.toString();
    }

    /** Stops the guest: SIGTERM to QEMU's PID, SIGKILL if it is still there 10 s later. */
    @Override
    public void close() throws InterruptedException {
        if (closed) {
            return;
        }
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs or ran
        }
    }

    private void stop() throws InterruptedException {
        closed = true;
        qemu.destroy();
        if (!qemu.waitFor(10, TimeUnit.SECONDS)) {
            qemu.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        try {
            Files.deleteIfExists(run.resolve("owner"));
        } catch (IOException ignored) {
            // only bookkeeping: boot.sh checks whether the PID in it lives
        }
    }

    private void stopQuietly() {
        try {
            if (!closed) {
                stop();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void awaitReady(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Path console = run.resolve("console.log");
        while (true) {
            // boot.sh empties the console log just before it becomes QEMU (exec, same PID): until
            // then the log may be an earlier guest's.
            String log = isQemu() && Files.exists(console) ? Files.readString(console, StandardCharsets.ISO_8859_1) : "";
            if (log.lines().anyMatch(line -> line.startsWith(READY))) {
                break;
            }
            String failed = log.lines().filter(line -> line.startsWith(FAILED)).findFirst().orElse(null);
            if (failed != null) {
                throw new IOException("the siw guest did not come up: " + failed + "\n--- console log, last lines:\n" + tail(log, 40));
            }
            if (!qemu.isAlive()) {
                throw new IOException("the siw guest's QEMU exited (status " + qemu.exitValue() + ") before the guest was ready:\n"
                        + Files.readString(run.resolve("qemu.out")) + "\n--- console log, last lines:\n" + tail(log, 30));
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("the siw guest was not ready after " + timeout.toSeconds()
                        + " s (-Dextsock.siw.readyTimeout=SECONDS)\n--- console log, last lines:\n" + tail(log, 30));
            }
            Thread.sleep(250);
        }
        // The command shell listens before READY is printed; one command proves the forward.
        ExecResult check = exec("cat /proc/sys/kernel/tainted", Duration.ofSeconds(30));
        if (!check.succeeded()) {
            throw new IOException("the siw guest's command shell does not work: " + check);
        }
    }

    private boolean isQemu() {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(qemu.pid()), "cmdline")), StandardCharsets.ISO_8859_1)
                    .startsWith("qemu-system");
        } catch (IOException e) {
            return false; // exited
        }
    }

    /** This jar's copy of the guest scripts, written into the cache (only when changed). */
    static Path scripts() throws IOException {
        Path directory = Files.createDirectories(cache().resolve("scripts"));
        for (String name : SCRIPTS) {
            byte[] content;
            try (InputStream in = SiwGuest.class.getResourceAsStream(RESOURCES + name)) {
                if (in == null) {
                    throw new IOException("the siw guest script " + name + " is not on the class path (" + RESOURCES + name
                            + "): extsock-testkit was built without its siw-guest directory");
                }
                content = in.readAllBytes();
            }
            Path target = directory.resolve(name);
            if (!Files.exists(target) || !java.util.Arrays.equals(Files.readAllBytes(target), content)) {
                Path temporary = Files.createTempFile(directory, name, ".tmp");
                Files.write(temporary, content);
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
        }
        return directory;
    }

    static String tail(String text, int lines) {
        List<String> all = text.lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    /**
     * {@code build} builds the guest (or says it is up to date); {@code check} also boots it,
     * shows siw and the servers, and stops it.
     */
    public static void main(String[] args) throws Exception {
        String what = args.length == 0 ? "check" : args[0];
        long start = System.nanoTime();
        switch (what) {
            case "build" -> {
                build();
                System.out.println(tail(Files.readString(cache().resolve("build.log")), 1));
            }
            case "check" -> {
                try (SiwGuest guest = boot()) {
                    System.out.printf("siw guest ready in %.1f s (qemu pid %d)%n", (System.nanoTime() - start) / 1e9, guest.pid());
                    System.out.println(guest.execChecked("rdma link show; ibv_devices; netstat -ltn"));
                }
            }
            default -> {
                System.err.println("usage: SiwGuest build|check");
                System.exit(2);
            }
        }
    }

    /** The path from a client in the guest to a server on the host; see {@link SiwGuest#openReverseRelay(int)}. */
    public static final class ReverseRelay implements AutoCloseable {
        private final SiwGuest guest;
        private final String guestSocatPid;
        private Socket toGuest;
        private Socket toServer;
        private Thread[] pumps = new Thread[0];

        private ReverseRelay(SiwGuest guest, String guestSocatPid) {
            this.guest = guest;
            this.guestSocatPid = guestSocatPid;
        }

        /** The address the guest's client connects to. */
        public String guestAddress() {
            return GUEST_ADDRESS;
        }

        /** The port the guest's client connects to. */
        public int guestPort() {
            return GUEST_RELAY_CLIENT_PORT;
        }

        private void join(int relayPort, int serverPort) throws IOException {
            InetAddress loopback = InetAddress.getLoopbackAddress();
            toGuest = new Socket();
            toGuest.connect(new InetSocketAddress(loopback, relayPort), 10_000);
            toServer = new Socket();
            toServer.connect(new InetSocketAddress(loopback, serverPort), 10_000);
            toGuest.setTcpNoDelay(true);
            toServer.setTcpNoDelay(true);
            pumps = new Thread[] {pump(toGuest, toServer, "guest->server"), pump(toServer, toGuest, "server->guest")};
        }

        private static Thread pump(Socket from, Socket to, String name) {
            Thread thread = new Thread(() -> {
                byte[] buffer = new byte[65536];
                try {
                    InputStream in = from.getInputStream();
                    OutputStream out = to.getOutputStream();
                    for (int n; (n = in.read(buffer)) >= 0; ) {
                        out.write(buffer, 0, n);
                    }
                    to.shutdownOutput();
                } catch (IOException e) {
                    // the other side closed, or close() did
                }
            }, "siw-relay " + name);
            thread.setDaemon(true);
            thread.start();
            return thread;
        }

        /** Closes both connections and ends the guest's socat if it still runs. */
        @Override
        public void close() throws InterruptedException {
            for (Socket socket : new Socket[] {toGuest, toServer}) {
                if (socket != null) {
                    try {
                        socket.close();
                    } catch (IOException ignored) {
                        // closing
                    }
                }
            }
            for (Thread pump : pumps) {
                pump.join(5_000);
            }
            if (guestSocatPid.matches("\\d+")) {
                try {
                    guest.exec("kill " + guestSocatPid + " 2>/dev/null; true", Duration.ofSeconds(30));
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot end the relay's socat in the siw guest", e);
                }
            }
        }
    }
}
