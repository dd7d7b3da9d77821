package io.extsock.testkit.wire;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One run of an outside program, to its end, with everything it printed kept.
 *
 * <p>Output goes to a file rather than a pipe so that a chatty program can never block on a
 * full pipe while we wait for it.
 */
record ExternalCommand(List<String> command, int exitCode, String output) {

    static ExternalCommand run(List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
        return run(command, Map.of(), timeoutSeconds);
    }

    static ExternalCommand run(List<String> command, Map<String, String> environment, long timeoutSeconds)
            throws IOException, InterruptedException {
        Path log = Files.createTempFile("wire-judge", ".log");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
            builder.environment().putAll(environment);
            Process process = builder.start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                throw new IOException(String.join(" ", command) + " did not finish within " + timeoutSeconds
                        + " s; it printed:\n" + Files.readString(log, StandardCharsets.UTF_8));
            }
            return new ExternalCommand(command, process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    static boolean onPath(String program, String path) {
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    boolean succeeded() {
        return exitCode == 0;
    }

    @Override
    public String toString() {
        return String.join(" ", command) + " (exit " + exitCode + ")\n" + output;
    }
}
