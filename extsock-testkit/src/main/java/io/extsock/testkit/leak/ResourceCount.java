package io.extsock.testkit.leak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;

/**
 * What this JVM holds now, to compare before and after: its live threads and its open file
 * descriptors (Linux: the entries of {@code /proc/self/fd}).
 */
public final class ResourceCount {

    /**
     * The JDK's thread that waits for child processes: it outlives the child it waited for by a
     * while, so a test that ran one excludes it.
     */
    public static final String PROCESS_REAPER = "process reaper";

    /**
     * JUnit's timeout watcher: it starts with the first test that has a timeout, which may come
     * after a baseline was counted.
     */
    public static final String JUNIT_TIMEOUT = "junit-jupiter-timeout";

    private ResourceCount() {
    }

    /**
     * Live threads, but for those whose name starts with one of these.
     *
     * @param excludedNamePrefixes the names (or their start) of threads not to count, such as
     *                             {@link #PROCESS_REAPER} or {@link #JUNIT_TIMEOUT}
     * @return the number of live threads counted
     */
    public static int liveThreads(String... excludedNamePrefixes) {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> Arrays.stream(excludedNamePrefixes).noneMatch(thread.getName()::startsWith))
                .count();
    }

    /**
     * Open file descriptors of this process.
     *
     * @return the number of entries in {@code /proc/self/fd}
     * @throws UncheckedIOException when that directory cannot be read (not Linux)
     */
    public static int openDescriptors() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return (int) fds.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
