package io.extsock.core.proof;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A second JVM started by a test, with its output captured line by line (a copy of
 * extsock-examples' test helper of the same name). Closing it destroys
 * the process (only this one: it was started here) if it has not exited.
 */
final class JavaProcess implements AutoCloseable {

    private final Process process;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuilder output = new StringBuilder();
    /** A thread of its own, joined at close: a pool's thread would outlive the test and look leaked. */
    private final Thread drainer;

    private JavaProcess(Process process) {
        this.process = process;
        this.drainer = new Thread(this::drain, "child-process-output");
        drainer.setDaemon(true);
        drainer.start();
    }

    /** Starts {@code java <jvmArgs...>} from the running JDK, stderr merged into stdout. */
    static JavaProcess start(List<String> jvmArgs) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        return new JavaProcess(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    /** Starts a main class of this test class path. */
    static JavaProcess startMain(Class<?> main, String... args) throws IOException {
        List<String> jvmArgs = new ArrayList<>(List.of("-cp", System.getProperty("java.class.path"),
                main.getName()));
        jvmArgs.addAll(List.of(args));
        return start(jvmArgs);
    }

    /** The next line the process prints, waiting up to the timeout. */
    String nextLine(long timeout, TimeUnit unit) throws InterruptedException, IOException {
        String line = lines.poll(timeout, unit);
        if (line == null) {
            throw new IOException("no output from the child process within " + timeout + " " + unit
                    + "; output so far:\n" + output());
        }
        return line;
    }

    /** Waits for the process to exit and returns its exit code. */
    int waitFor(long timeout, TimeUnit unit) throws InterruptedException, IOException {
        if (!process.waitFor(timeout, unit)) {
            throw new IOException("child process did not exit within " + timeout + " " + unit
                    + "; output so far:\n" + output());
        }
        drainer.join();
        return process.exitValue();
    }

    /** Everything the process printed so far. */
    synchronized String output() {
        return output.toString();
    }

    private void drain() {
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = reader.readLine()) != null; ) {
                synchronized (this) {
                    output.append(line).append('\n');
                }
                lines.add(line);
            }
        } catch (IOException ignored) {
            // the process went away; what it printed is kept
        }
    }

    /**
     * Stops the process with SIGSTOP and returns once every one of its threads is stopped (as
     * {@code /proc} says): from then on it does nothing, while its kernel still carries TCP.
     */
    void freeze() throws IOException, InterruptedException {
        Process stop = new ProcessBuilder("kill", "-STOP", Long.toString(process.pid())).inheritIO().start();
        if (stop.waitFor() != 0) {
            throw new IOException("kill -STOP " + process.pid() + " failed");
        }
        Path tasks = Path.of("/proc", Long.toString(process.pid()), "task");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!everyThreadStopped(tasks)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the process's threads did not all stop");
            }
            Thread.sleep(1);  // a polling interval: the state is read again
        }
    }

    /** Whether every thread under {@code /proc/<pid>/task} is in state T (stopped by a signal). */
    private static boolean everyThreadStopped(Path tasks) throws IOException {
        try (java.util.stream.Stream<Path> threads = java.nio.file.Files.list(tasks)) {
            for (Path thread : (Iterable<Path>) threads::iterator) {
                String stat;
                try {
                    stat = java.nio.file.Files.readString(thread.resolve("stat"));
                } catch (java.nio.file.NoSuchFileException ended) {
                    continue;  // a thread that ended meanwhile
                }
                // pid (comm) state ...: the command may hold spaces and parentheses, the state follows the last ')'
                char state = stat.charAt(stat.lastIndexOf(')') + 2);
                if (state != 'T') {
                    return false;
                }
            }
        }
        return true;
    }

    /** Kills the process with SIGKILL, as a crash would: it gets no chance to close anything. */
    void kill() {
        process.destroyForcibly();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
        drainer.join(TimeUnit.SECONDS.toMillis(10));  // its output ends with the process
    }
}
