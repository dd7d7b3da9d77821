package io.extsock.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.zip.ZipFile;

/**
 * A program in a JVM of its own, started as a user would start it under the agent: {@code java
 * -javaagent:target/extsock-agent.jar=ARGS -cp CLASSPATH MAIN ARGS...}, with the test JVM's own
 * java; or without the agent ({@link #withoutAgent}), for a plain peer. Its class path holds no
 * extsock (checked): extsock reaches it through the agent jar alone. Standard output and error go
 * to files, read while it runs and after it ends.
 */
final class AgentJvm implements AutoCloseable {

    private static final Path AGENT_JAR = Path.of(System.getProperty("extsock.agent.jar", "target/extsock-agent.jar"));

    private final Process process;
    private final Path stdout;
    private final Path stderr;
    private final String description;

    private AgentJvm(Process process, Path stdout, Path stderr, String description) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
        this.description = description;
    }

    /**
     * @param agentArguments what follows {@code -javaagent:extsock-agent.jar=}
     * @param classPath      the program's jars and directories (none may hold extsock)
     * @param workDirectory  where its output files go
     */
    static AgentJvm start(String agentArguments, List<Path> classPath, Path workDirectory, String mainClass,
            String... arguments) throws IOException {
        return start(agentArguments, List.of(), classPath, workDirectory, mainClass, arguments);
    }

    /**
     * @param jvmOptions options for the JVM before the class path ({@code -Dname=value})
     */
    static AgentJvm start(String agentArguments, List<String> jvmOptions, List<Path> classPath, Path workDirectory,
            String mainClass, String... arguments) throws IOException {
        if (!Files.isRegularFile(AGENT_JAR)) {
            fail("no agent jar at " + AGENT_JAR.toAbsolutePath() + ": run the tests with mvn verify (after package)");
        }
        List<String> options = new ArrayList<>();
        options.add("-javaagent:" + AGENT_JAR.toAbsolutePath() + "=" + agentArguments);
        options.addAll(jvmOptions);
        return launch(options, classPath, workDirectory, mainClass, arguments);
    }

    /** The program as it runs without the agent: plain java.net sockets, the other end of a fallback. */
    static AgentJvm withoutAgent(List<Path> classPath, Path workDirectory, String mainClass, String... arguments)
            throws IOException {
        return withoutAgent(List.of(), classPath, workDirectory, mainClass, arguments);
    }

    /**
     * @param jvmOptions options for the JVM before the class path ({@code -Dname=value})
     */
    static AgentJvm withoutAgent(List<String> jvmOptions, List<Path> classPath, Path workDirectory, String mainClass,
            String... arguments) throws IOException {
        return launch(jvmOptions, classPath, workDirectory, mainClass, arguments);
    }

    private static AgentJvm launch(List<String> jvmOptions, List<Path> classPath, Path workDirectory, String mainClass,
            String... arguments) throws IOException {
        for (Path entry : classPath) {
            assertFalse(holdsExtsock(entry), entry + " holds extsock: the program must get it from the agent alone");
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath.stream().map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator)));
        command.add(mainClass);
        command.addAll(List.of(arguments));
        Path out = Files.createTempFile(workDirectory, mainClass, ".out");
        Path err = Files.createTempFile(workDirectory, mainClass, ".err");
        Process process = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(nullDevice()))
                .start();
        return new AgentJvm(process, out, err, String.join(" ", command));
    }

    /** The jar or classes directory a class was loaded from. */
    static Path locationOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate " + type, e);
        }
    }

    private static boolean holdsExtsock(Path entry) throws IOException {
        String marker = "io/extsock/ExtendedSocket.class";
        if (Files.isDirectory(entry)) {
            return Files.exists(entry.resolve(marker));
        }
        try (ZipFile jar = new ZipFile(entry.toFile())) {
            return jar.getEntry(marker) != null;
        }
    }

    private static java.io.File nullDevice() {
        return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    /** Waits until standard output holds the text (the program is ready), or fails the test. */
    void awaitOutput(String text, Duration limit) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!stdout().contains(text)) {
            if (!process.isAlive()) {
                fail("exited with status " + process.exitValue() + " before printing '" + text + "': " + this);
            }
            if (System.nanoTime() > deadline) {
                fail("no '" + text + "' within " + limit + ": " + this);
            }
            Thread.sleep(50);  // a polling interval
        }
    }

    /** Waits for the program to end by itself, or fails the test. */
    int awaitExit(Duration limit) throws IOException, InterruptedException {
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            fail("still running after " + limit + ": " + this);
        }
        return process.exitValue();
    }

    /** Asks the program to stop as Ctrl-C would (SIGTERM: shutdown hooks run), and waits for it. */
    int stop(Duration limit) throws IOException, InterruptedException {
        process.destroy();
        return awaitExit(limit);
    }

    long pid() {
        return process.pid();
    }

    String stdout() throws IOException {
        return Files.readString(stdout, StandardCharsets.UTF_8);
    }

    List<String> stderrLines() throws IOException {
        return Files.readAllLines(stderr, StandardCharsets.UTF_8);
    }

    /**
     * Standard error after the agent's start line (log=info or debug), which must come first and
     * name the rules file: what the agent then said of the connections, and the program's own lines.
     */
    List<String> reportLines() throws IOException {
        List<String> lines = stderrLines();
        assertFalse(lines.isEmpty(), "the agent printed no start line: " + this);
        assertTrue(AgentLog.START.matcher(lines.get(0)).matches(), "the agent's first line is no start line: " + this);
        return lines.subList(1, lines.size());
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }

    @Override
    public String toString() {
        try {
            return description + "\n--- stdout:\n" + stdout() + "--- stderr:\n" + String.join("\n", stderrLines());
        } catch (IOException e) {
            return description + " (output unreadable: " + e + ")";
        }
    }
}
