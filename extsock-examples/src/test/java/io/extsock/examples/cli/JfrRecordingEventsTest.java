package io.extsock.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import jdk.jfr.Event;
import jdk.jfr.Name;
import org.junit.jupiter.api.Test;

/**
 * {@code --jfr} records every event the engine defines: the command line names them as strings
 * (it does not see the engine at compile time), so this compares that list with the event
 * classes of {@code io.extsock.core.events} as they are.
 */
class JfrRecordingEventsTest {

    @Test
    void theRecordingEnablesEveryEventTheEngineDefines() throws Exception {
        TreeSet<String> defined = new TreeSet<>();
        for (Class<?> type : eventClasses()) {
            defined.add(type.getAnnotation(Name.class).value());
        }
        assertFalse(defined.isEmpty(), "no event classes found");
        TreeSet<String> enabled = new TreeSet<>(JfrRecording.EXTSOCK_EVENTS);
        enabled.add(JfrRecording.STATISTICS_EVENT);
        assertEquals(defined, enabled);
    }

    /** The concrete, named JFR event classes in the engine's events package. */
    private static List<Class<?>> eventClasses() throws IOException, URISyntaxException, ClassNotFoundException {
        Class<?> anchor = Class.forName("io.extsock.core.events.ExtsockEvents");
        Path location = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> found = new ArrayList<>();
        if (Files.isDirectory(location)) {
            collect(location.resolve("io/extsock/core/events"), found);
        } else {
            try (FileSystem jar = FileSystems.newFileSystem(location, Map.of())) {
                collect(jar.getPath("io/extsock/core/events"), found);
            }
        }
        return found;
    }

    private static void collect(Path directory, List<Class<?>> found) throws IOException, ClassNotFoundException {
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.toList()) {
                String name = file.getFileName().toString();
                if (!name.endsWith(".class") || name.contains("$")) {
                    continue;
                }
                Class<?> type = Class.forName("io.extsock.core.events." + name.substring(0, name.length() - 6));
                if (Event.class.isAssignableFrom(type) && type.isAnnotationPresent(Name.class)) {
                    found.add(type);
                }
            }
        }
    }
}
