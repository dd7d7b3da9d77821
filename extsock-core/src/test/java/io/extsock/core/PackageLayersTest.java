package io.extsock.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The engine's packages depend on each other in one direction only, read off the main sources'
 * imports: no cycle among them, and the sans-I/O protocol layers (mpa, ddp, rdmap) know nothing
 * of sockets, threads or the layers above them.
 */
class PackageLayersTest {

    private static final Path SOURCES = Path.of("src", "main", "java", "io", "extsock", "core");
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?io\\.extsock\\.core\\.(\\w+)\\.",
            Pattern.MULTILINE);
    private static final Set<String> SANS_IO = Set.of("mpa", "ddp", "rdmap");

    @Test
    void thePackagesFormNoCycle() throws IOException {
        Map<String, Set<String>> uses = dependencies();
        assertTrue(uses.size() >= 8, "read the packages: " + uses.keySet());
        List<String> cycles = new ArrayList<>();
        for (String start : uses.keySet()) {
            for (String next : uses.get(start)) {
                if (reaches(uses, next, start, new TreeSet<>())) {
                    cycles.add(start + " -> " + next + " -> ... -> " + start);
                }
            }
        }
        assertEquals(List.of(), cycles, "package cycles");
    }

    @Test
    void theProtocolLayersUseNoLayerAboveThem() throws IOException {
        Map<String, Set<String>> uses = dependencies();
        for (String layer : SANS_IO) {
            Set<String> above = new TreeSet<>(uses.get(layer));
            above.removeAll(Set.of("mpa", "ddp", "rdmap", "terminate"));
            assertEquals(Set.of(), above, layer + " uses a layer above the protocol codecs");
        }
    }

    @Test
    void theProtocolLayersTouchNoSocketNorThread() throws IOException {
        for (String layer : SANS_IO) {
            try (Stream<Path> files = Files.list(SOURCES.resolve(layer))) {
                for (Path file : files.toList()) {
                    String source = Files.readString(file);
                    for (String io : List.of("import java.nio.channels.", "import java.net.", "new Thread(",
                            "import java.util.concurrent.locks.")) {
                        assertTrue(!source.contains(io), file + " is sans-I/O, yet has " + io);
                    }
                }
            }
        }
    }

    private static boolean reaches(Map<String, Set<String>> uses, String from, String target, Set<String> seen) {
        if (from.equals(target)) {
            return true;
        }
        if (!seen.add(from)) {
            return false;
        }
        for (String next : uses.getOrDefault(from, Set.of())) {
            if (reaches(uses, next, target, seen)) {
                return true;
            }
        }
        return false;
    }

    /** Each package of the engine, and the other packages of the engine its main sources import. */
    private static Map<String, Set<String>> dependencies() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        try (Stream<Path> packages = Files.list(SOURCES)) {
            for (Path dir : packages.filter(Files::isDirectory).toList()) {
                String name = dir.getFileName().toString();
                Set<String> used = new TreeSet<>();
                try (Stream<Path> files = Files.list(dir)) {
                    for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                        Matcher imports = IMPORT.matcher(Files.readString(file));
                        while (imports.find()) {
                            if (!imports.group(1).equals(name)) {
                                used.add(imports.group(1));
                            }
                        }
                    }
                }
                uses.put(name, used);
            }
        }
        return uses;
    }
}
