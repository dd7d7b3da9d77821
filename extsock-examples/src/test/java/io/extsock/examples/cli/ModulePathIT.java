package io.extsock.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The packaged jars are proper named modules: the command line runs from the module path
 * alone, with the api, the core and picocli resolved as modules.
 */
@Timeout(120)
class ModulePathIT {

    @Test
    void demoRunsOnTheModulePath() throws Exception {
        Path target = Path.of("target");
        Path jar = target.resolve("extsock-examples.jar");
        Path lib = target.resolve("lib");
        assertTrue(Files.isRegularFile(jar), "package the module first: " + jar.toAbsolutePath());
        String modulePath = jar + File.pathSeparator + lib;
        Path recording = Files.createTempFile("extsock-module-path", ".jfr");
        try (Cli demo = Cli.java(List.of(
                "--module-path", modulePath,
                "--add-modules", "ALL-MODULE-PATH",
                "--show-module-resolution",
                "-m", "io.extsock.examples/io.extsock.examples.cli.Main",
                "demo", "--size", String.valueOf(4 << 20), "--jfr", recording.toString()))) {
            assertEquals(0, demo.waitFor(), demo.transcript());
            String output = demo.out() + demo.err();
            assertTrue(output.contains("all verified"), output);
            for (String module : List.of("io.extsock.api", "io.extsock.core", "info.picocli")) {
                assertTrue(output.contains("root " + module) || output.contains(module + " file:"),
                        module + " was not resolved as a module:\n" + output);
            }
            // jdk.jfr resolved too, and the engine's events reach it from a named module
            assertTrue(jdk.jfr.consumer.RecordingFile.readAllEvents(recording).stream()
                    .anyMatch(e -> e.getEventType().getName().equals("io.extsock.IwarpConnected")), "" + recording);
        } finally {
            Files.deleteIfExists(recording);
        }
    }
}
