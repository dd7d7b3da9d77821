package io.extsock.examples;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Linux soft-iWARP in a QEMU guest (../shared/tools/siw-vm), as a test peer: builds the guest
 * (cached between runs), boots it, runs commands in it, stops it. Anything that keeps the guest
 * from coming up is an exception that says so: interop tests fail, they are never skipped.
 *
 * <p>Host ports (all on 127.0.0.1): {@link #RPING_PORT} the guest's standing {@code rping -s -P
 * -v} (64-byte buffers), {@link #LARGE_RPING_PORT} a second one with {@code -S 65535}, and
 * {@link #RELAY_PORT} the relay that lets a guest client reach a host server.
 */
final class SiwGuest implements AutoCloseable {

    static final int RPING_PORT = 19999;
    static final int LARGE_RPING_PORT = 19998;
    static final int RELAY_PORT = 20000;
    /** Where the guest's end of the relay listens for the guest's rping client (guest address 10.0.2.15). */
    static final int GUEST_RELAY_PORT = 7000;

    private final Path tools;

    private SiwGuest(Path tools) {
        this.tools = tools;
    }

    /** Builds and boots the guest and starts its large-buffer rping server. */
    static SiwGuest boot() throws IOException, InterruptedException {
        Path tools = findTools();
        Path pidFile = cache().resolve("run").resolve("qemu.pid");
        if (Files.exists(pidFile) && isQemu(Files.readString(pidFile).trim())) {
            throw new IOException("a siw-vm guest is already running (pid " + Files.readString(pidFile).trim()
                    + ") and holds the ports these tests use: stop it with " + tools.resolve("boot-guest.sh") + " --stop");
        }
        Run build = run(List.of(tools.resolve("build-guest.sh").toString()), Map.of(), 1800);
        if (build.exitCode != 0) {
            throw new IOException("building the siw guest failed (build-guest.sh exit " + build.exitCode + "):\n"
                    + tail(build.output));
        }
        Run boot = run(List.of(tools.resolve("boot-guest.sh").toString(), "--daemon"),
                Map.of("EXTRA_FWD", LARGE_RPING_PORT + ":" + LARGE_RPING_PORT), 600);
        SiwGuest guest = new SiwGuest(tools);
        if (boot.exitCode != 0) {
            guest.close();
            throw new IOException("the siw guest did not boot (boot-guest.sh --daemon exit " + boot.exitCode + "):\n"
                    + tail(boot.output));
        }
        try {
            guest.exec("(rping -s -P -v -S 65535 -a 10.0.2.15 -p " + LARGE_RPING_PORT
                    + " </dev/null >/tmp/rping-large.log 2>&1 &)");
            guest.awaitListening(LARGE_RPING_PORT);
        } catch (IOException | RuntimeException e) {
            guest.close();
            throw e;
        }
        return guest;
    }

    /** Runs a shell command in the guest and returns what it printed (stdout and stderr). */
    String exec(String command) throws IOException, InterruptedException {
        Run run = run(List.of("python3", tools.resolve("guest_exec.py").toString(), command), Map.of(), 180);
        if (run.exitCode != 0) {
            throw new IOException("guest_exec.py failed (exit " + run.exitCode + "): " + run.output);
        }
        return run.output;
    }

    /**
     * Waits until a TCP port listens in the guest, read from /proc/net/tcp: siw drops a listener
     * that a bare connect-and-close probes, so the port itself is never tried.
     */
    void awaitListening(int port) throws IOException, InterruptedException {
        String local = String.format(":%04X 00000000:0000 0A", port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!exec("cat /proc/net/tcp /proc/net/tcp6").toUpperCase().contains(local)) {
            if (System.nanoTime() > deadline) {
                throw new IOException("nothing listens on port " + port + " in the siw guest after 60 s");
            }
            Thread.sleep(200);
        }
    }

    /** The guest's kernel log and rping servers' logs: for a failure's message. */
    String diagnostics() {
        try {
            return exec("dmesg | tail -20; tail -5 /tmp/rping-server.log /tmp/rping-large.log");
        } catch (IOException | InterruptedException e) {
            return "(no diagnostics: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        run(List.of(tools.resolve("boot-guest.sh").toString(), "--stop"), Map.of(), 60);
    }

    /** A host program, installed with apt-get when missing (these tests run as root, as CI does). */
    static void ensureHostProgram(String program, String debianPackage) throws IOException, InterruptedException {
        if (run(List.of("sh", "-c", "command -v " + program), Map.of(), 30).exitCode == 0) {
            return;
        }
        Run install = run(List.of("sh", "-c", "apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "
                + debianPackage), Map.of(), 600);
        if (run(List.of("sh", "-c", "command -v " + program), Map.of(), 30).exitCode != 0) {
            throw new IOException("the siw interop tests need " + program + " (apt-get install " + debianPackage
                    + "), and installing it failed:\n" + tail(install.output));
        }
    }

    /** ../shared/tools/siw-vm: -Dextsock.shared, else a "shared" beside the project or a parent. */
    private static Path findTools() throws IOException {
        List<Path> candidates = new ArrayList<>();
        String configured = System.getProperty("extsock.shared");
        if (configured != null) {
            candidates.add(Path.of(configured));
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            candidates.add(dir.resolve("shared"));
        }
        for (Path shared : candidates) {
            Path tools = shared.resolve("tools").resolve("siw-vm");
            if (Files.isRegularFile(tools.resolve("boot-guest.sh"))) {
                return tools;
            }
        }
        throw new IOException("cannot find shared/tools/siw-vm beside the project or its parents;"
                + " set -Dextsock.shared=/path/to/shared");
    }

    /** ../shared/tools/wire-oracle, found the same way. */
    static Path wireOracle() throws IOException {
        return findTools().getParent().resolve("wire-oracle");
    }

    private static Path cache() {
        String configured = System.getenv("SIWVM_CACHE");
        return configured != null ? Path.of(configured) : Path.of(System.getProperty("user.home"), ".cache", "extsock-siw-vm");
    }

    private static boolean isQemu(String pid) throws IOException {
        Path cmdline = Path.of("/proc", pid, "cmdline");
        return Files.exists(cmdline) && new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8).contains("qemu-system");
    }

    private static String tail(String output) {
        List<String> lines = output.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }

    record Run(int exitCode, String output) {
    }

    static Run run(List<String> command, Map<String, String> environment, long timeoutSeconds)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().putAll(environment);
        Path output = Files.createTempFile("siw-guest", ".log");
        try {
            Process process = builder.redirectOutput(output.toFile()).start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new Run(-1, Files.readString(output) + "\n(timed out after " + timeoutSeconds + " s)");
            }
            return new Run(process.exitValue(), Files.readString(output));
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
