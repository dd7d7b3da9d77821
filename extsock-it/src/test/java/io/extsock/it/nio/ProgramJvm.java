package io.extsock.it.nio;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A program in a JVM of its own, with this test's class path and the test JVM's java: with
 * extsock's provider as the JVM's ({@link #underExtsocksProvider}), or with the JDK's ({@link
 * #plain}, for programs that take extsock's provider through a library's own hook). Standard
 * output and error go to files, read while it runs and after it ends.
 */
final class ProgramJvm implements AutoCloseable {

    /** What makes extsock's provider the JVM's, as its documentation says. */
    static final List<String> EXTSOCK_PROVIDER = List.of(
            "-Djava.nio.channels.spi.SelectorProvider=io.extsock.ExtendedSelectorProvider",
            "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED");

    private final Process process;
    private final Path stdout;
    private final Path stderr;
    private final String description;

    private ProgramJvm(Process process, Path stdout, Path stderr, String description) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
        this.description = description;
    }

    static ProgramJvm underExtsocksProvider(Path workDirectory, Class<?> main, String... arguments) throws IOException {
        return start(EXTSOCK_PROVIDER, workDirectory, main, arguments);
    }

    static ProgramJvm plain(Path workDirectory, Class<?> main, String... arguments) throws IOException {
        return start(List.of(), workDirectory, main, arguments);
    }

    static ProgramJvm start(List<String> jvmOptions, Path workDirectory, Class<?> main, String... arguments)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(arguments));
        Path out = Files.createTempFile(workDirectory, main.getSimpleName(), ".out");
        Path err = Files.createTempFile(workDirectory, main.getSimpleName(), ".err");
        Process process = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        return new ProgramJvm(process, out, err, String.join(" ", command));
    }

    /** Waits for a line of standard output that the pattern matches, and gives its first group. */
    String awaitLine(Pattern line, Duration limit) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            Matcher matcher = line.matcher(stdout());
            if (matcher.find()) {
                return matcher.group(1);
            }
            if (!process.isAlive()) {
                fail("exited with status " + process.exitValue() + " before printing a line '" + line + "': " + this);
            }
            if (System.nanoTime() > deadline) {
                fail("no line '" + line + "' within " + limit + ": " + this);
            }
            Thread.sleep(20);
        }
    }

    /** Waits for the program to end by itself, or fails the test. */
    int awaitExit(Duration limit) throws InterruptedException {
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            fail("still running after " + limit + ": " + this);
        }
        return process.exitValue();
    }

    String stdout() throws IOException {
        return Files.readString(stdout, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }

    @Override
    public String toString() {
        try {
            return description + "\n--- stdout:\n" + stdout() + "--- stderr:\n"
                    + Files.readString(stderr, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return description + " (output unreadable: " + e + ")";
        }
    }
}
