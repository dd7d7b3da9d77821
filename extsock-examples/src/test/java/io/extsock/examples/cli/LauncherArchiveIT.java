package io.extsock.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code extsock} launcher makes a class-data-sharing archive once per build and JVM (a short
 * training run), and every later run maps the command line's classes from it instead of loading
 * them: most of a cold first switch's cost. Runs the repository's own script, with the jar this
 * build packaged.
 */
@Timeout(600)
class LauncherArchiveIT {

    private static final Path TARGET = Path.of("target");
    private static final Path SCRIPT = Path.of("..", "extsock");

    @Test
    void theFirstRunMakesTheArchiveAndTheNextMapsItsClassesFromIt() throws Exception {
        assertTrue(Files.isRegularFile(TARGET.resolve("extsock-examples.jar")), "package the module first");
        markBuilt();
        deleteArchives();

        Run first = run("--help");
        assertEquals(0, first.exit, first.err);
        assertTrue(first.err.contains("preparing a class-data archive"), first.err);
        assertEquals(1, archives("jsa").size(), "one archive, for this JVM: " + archives("jsa"));
        assertEquals(List.of(), archives("no-jsa"), "the training run succeeded");

        Run second = run("--help", "-Xlog:class+load=info");
        assertEquals(0, second.exit, second.err);
        assertFalse(second.err.contains("preparing"), "made once: " + second.err);
        assertTrue(second.out.contains("io.extsock.examples.cli.Main source: shared objects file"),
                "the command line's classes came from the archive:\n" + head(second.out));
    }

    @Test
    void withTheArchiveOffTheClassesLoadFromTheJar() throws Exception {
        markBuilt();

        Run off = run(List.of("EXTSOCK_CDS=off"), "--help", "-Xlog:class+load=info");

        assertEquals(0, off.exit, off.err);
        assertTrue(off.out.contains("io.extsock.examples.cli.Main source: file:"), head(off.out));
    }

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String argument, String... javaOptions) throws Exception {
        return run(List.of(), argument, javaOptions);
    }

    private static Run run(List<String> environment, String argument, String... javaOptions) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", SCRIPT.toString(), argument);
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("EXTSOCK_JAVA_OPTS", String.join(" ", javaOptions));
        for (String variable : environment) {
            String[] nameAndValue = variable.split("=", 2);
            builder.environment().put(nameAndValue[0], nameAndValue[1]);
        }
        Path out = Files.createTempFile("extsock-launcher", ".out");
        Path err = Files.createTempFile("extsock-launcher", ".err");
        try {
            Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            assertTrue(process.waitFor(300, TimeUnit.SECONDS), "the launcher ended");
            return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** The launcher builds only when a source is newer than its stamp: this build's jar is current. */
    private static void markBuilt() throws IOException {
        Path stamp = TARGET.resolve(".extsock-built");
        if (!Files.exists(stamp)) {
            Files.createFile(stamp);
        }
        Files.setLastModifiedTime(stamp, FileTime.from(Instant.now()));
    }

    private static void deleteArchives() throws IOException {
        for (Path archive : archives("jsa")) {
            Files.delete(archive);
        }
        for (Path mark : archives("no-jsa")) {
            Files.delete(mark);
        }
    }

    private static List<Path> archives(String extension) throws IOException {
        try (Stream<Path> files = Files.list(TARGET)) {
            return files.filter(f -> f.getFileName().toString().matches("extsock-[0-9]+\\." + extension)).toList();
        }
    }

    private static String head(String output) {
        return output.length() > 4000 ? output.substring(0, 4000) + "..." : output;
    }
}
