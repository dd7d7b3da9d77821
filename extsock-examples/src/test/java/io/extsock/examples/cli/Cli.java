package io.extsock.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code extsock} command line run as a user runs it: a separate JVM, {@code java -cp
 * <this class path> io.extsock.examples.cli.Main args...} (or any other JVM command line), with its
 * standard output and standard error kept apart. Closing it destroys the process (only this
 * one: it was started here).
 */
public final class Cli implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("listening on [^ ]+:(\\d+)");

    private final Process process;
    private final StringBuilder out = new StringBuilder();
    private final StringBuilder err = new StringBuilder();
    private final LinkedBlockingQueue<String> outLines = new LinkedBlockingQueue<>();
    private final Thread outDrain;
    private final Thread errDrain;
    private int port;

    private Cli(Process process) {
        this.process = process;
        // Threads of their own: a drain blocks for the process's life, and the common pool may
        // have a single thread (two cores), which a long-lived server's drain would keep.
        this.outDrain = drainThread(process.getInputStream(), out, outLines);
        this.errDrain = drainThread(process.getErrorStream(), err, null);
    }

    /** Starts {@code extsock args...}. */
    public static Cli start(String... args) throws IOException {
        return startMain(Main.class, args);
    }

    /** Starts a main class of this test class path. */
    public static Cli startMain(Class<?> main, String... args) throws IOException {
        List<String> jvmArgs = new ArrayList<>(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        jvmArgs.addAll(List.of(args));
        return java(jvmArgs);
    }

    /** Starts {@code java jvmArgs...} from the running JDK, with no standard input. */
    public static Cli java(List<String> jvmArgs) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvmArgs);
        return new Cli(new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(nullFile())).start());
    }

    /** Runs {@code extsock args...} to its end (within two minutes: a hang fails the test). */
    public static Cli run(String... args) throws IOException, InterruptedException {
        Cli cli = start(args);
        cli.waitFor();
        return cli;
    }

    /** Starts a server command and returns it once it printed the port it listens on. */
    public static Cli server(String... args) throws IOException, InterruptedException {
        Cli cli = start(args);
        cli.port();
        return cli;
    }

    private static java.io.File nullFile() {
        return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    /** The port from the server's "listening on host:port" line (waits for it; call from one thread). */
    public int port() throws IOException, InterruptedException {
        while (port == 0) {
            String line = outLines.poll(60, TimeUnit.SECONDS);
            if (line == null) {
                throw new IOException("the server printed no 'listening on' line\n" + transcript());
            }
            Matcher matcher = LISTENING.matcher(line);
            if (matcher.find()) {
                port = Integer.parseInt(matcher.group(1));
            }
        }
        return port;
    }

    /** Waits for the exit (two minutes at most) and returns the exit code. */
    public int waitFor() throws IOException, InterruptedException {
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            throw new IOException("extsock did not exit within 120 s; stdout:\n" + out() + "\nstderr:\n" + err());
        }
        outDrain.join();
        errDrain.join();
        return process.exitValue();
    }

    public synchronized String out() {
        return out.toString();
    }

    public synchronized String err() {
        return err.toString();
    }

    /** Sends SIGTERM, as Ctrl-C or kill would. */
    public void terminate() {
        process.destroy();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** What a test failure should show. */
    public String transcript() {
        return "exit " + (process.isAlive() ? "(running)" : process.exitValue()) + "\n--- stdout:\n" + out()
                + "--- stderr:\n" + err();
    }

    /**
     * Checks a user error: the exit code, and standard error is one line, starting {@code
     * extsock <topic>: } ({@code extsock: } for an empty topic), containing {@code expected},
     * with no stack trace.
     */
    public void assertUserError(int exitCode, String topic, String expected) throws IOException, InterruptedException {
        assertEquals(exitCode, waitFor(), transcript());
        String error = err();
        assertEquals(1, error.lines().count(), "one line on stderr\n" + transcript());
        assertTrue(error.startsWith(topic.isEmpty() ? "extsock: " : "extsock " + topic + ": "), transcript());
        assertTrue(error.contains(expected), "expected '" + expected + "'\n" + transcript());
        assertFalse(error.contains("Exception") || error.contains("\tat "), "no stack trace\n" + transcript());
    }

    private Thread drainThread(InputStream stream, StringBuilder into, LinkedBlockingQueue<String> lines) {
        Thread thread = new Thread(() -> drain(stream, into, lines), "drain");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private void drain(InputStream stream, StringBuilder into, LinkedBlockingQueue<String> lines) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            for (String line; (line = reader.readLine()) != null; ) {
                synchronized (this) {
                    into.append(line).append('\n');
                }
                if (lines != null) {
                    lines.add(line);
                }
            }
        } catch (IOException ignored) {
            // the process went away; what it printed is kept
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
