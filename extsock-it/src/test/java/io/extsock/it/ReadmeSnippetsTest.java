package io.extsock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/**
 * The documentation's Java runs as written. Every {@code ```java} block of README.md and of the
 * pages of docs/ is a program body: its {@code import} lines go to the top of a generated class,
 * the rest into its {@code main}, with the imports a reader would add anyway (java.io, java.net,
 * java.nio, java.util, java.util.concurrent, io.extsock, io.extsock.verbs). All blocks compile
 * together against this module's test class path (extsock-api and extsock-core, nothing else);
 * each then runs in its own JVM, within a minute, and must exit 0. A {@code ```text} block right
 * after a Java block is its output, compared line by line.
 *
 * <p>And the README is what the consumer project of {@code src/it/consumer} builds and runs (the
 * maven-invoker-plugin run of this module, against the artifacts it installs in a private
 * repository): the Java block of its "A tour of the API" is {@code Example.main}'s body, and the
 * Maven block of its "Use it in your project" has its lines in the consumer's pom.xml, in order.
 */
@Timeout(300)
class ReadmeSnippetsTest {

    static final String USE_IT = "Use it in your project";
    static final String TOUR = "A tour of the API";

    private static final List<String> IMPLICIT_IMPORTS = List.of(
            "java.io.*", "java.net.*", "java.nio.*", "java.nio.channels.*", "java.nio.charset.StandardCharsets",
            "java.util.*",
            "java.util.concurrent.*", "io.extsock.*", "io.extsock.verbs.*");

    private static final Path CONSUMER = Path.of("src", "it", "consumer");

    private static Path classes;
    private static List<Readme.Block> javaBlocks;

    @BeforeAll
    static void compileEveryJavaBlock() throws IOException {
        javaBlocks = Readme.blocksOfEveryDocument("java");
        assertFalse(javaBlocks.isEmpty(), "the documentation has no ```java block");
        Path generated = Files.createDirectories(Path.of("target", "readme-snippets", "src"));
        classes = Files.createDirectories(Path.of("target", "readme-snippets", "classes"));
        List<Path> sources = new ArrayList<>();
        for (int i = 0; i < javaBlocks.size(); i++) {
            Path source = generated.resolve(className(i) + ".java");
            Files.writeString(source, program(className(i), javaBlocks.get(i)));
            sources.add(source);
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT,
                StandardCharsets.UTF_8)) {
            List<String> options = List.of("--release", "17", "-Xlint:all,-serial", "-cp", testClassPath(),
                    "-d", classes.toString());
            StringWriter out = new StringWriter();
            boolean compiled = javac.getTask(out, files, diagnostics, options, null,
                    files.getJavaFileObjectsFromPaths(sources)).call();
            StringBuilder report = new StringBuilder();
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                if (d.getKind() == Diagnostic.Kind.ERROR || d.getKind() == Diagnostic.Kind.WARNING
                        || d.getKind() == Diagnostic.Kind.MANDATORY_WARNING) {
                    report.append(readmeLocation(d)).append(": ").append(d.getKind()).append(": ")
                            .append(d.getMessage(Locale.ROOT)).append('\n');
                }
            }
            assertTrue(compiled && report.length() == 0,
                    "the documentation's Java does not compile cleanly as written:\n" + report + out);
        }
    }

    @TestFactory
    Stream<DynamicTest> everyJavaBlockRuns() {
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < javaBlocks.size(); i++) {
            Readme.Block block = javaBlocks.get(i);
            String name = className(i);
            tests.add(DynamicTest.dynamicTest(block.where() + " (" + block.section() + ")", () -> run(name, block)));
        }
        return tests.stream();
    }

    @Test
    void theToursExampleIsTheConsumersCode() throws IOException {
        Readme.Block example = Readme.blocks(Readme.PATH, "java").stream()
                .filter(block -> block.section().equals(TOUR)).findFirst()
                .orElseThrow(() -> new AssertionError("no ```java block under the README's '## " + TOUR + "'"));
        List<String> source = Files.readAllLines(CONSUMER.resolve("src/main/java/example/Example.java"));
        int main = indexOf(source, "public static void main(String[] args) throws Exception {");
        int end = source.size() - 1;
        while (!source.get(end).equals("    }")) {  // main's closing brace, before the class's
            end--;
        }
        // The README leaves the imports out; the consumer's own compile says they are right.
        List<String> consumer = source.subList(main + 1, end);
        assertEquals(normalized(example.lines()), normalized(consumer),
                "the README's example (" + example.where() + ") and " + CONSUMER
                        + "/src/main/java/example/Example.java differ: keep them the same");
    }

    @Test
    void everyTakeOfACompletionHandlesItsTimeout() {
        // CompletionQueue.take returns null when its timeout passes first: a snippet a reader
        // copies must not dereference it unchecked.
        for (Readme.Block block : javaBlocks) {
            List<String> lines = block.lines();
            for (int i = 0; i < lines.size(); i++) {
                Matcher take = Pattern.compile("(\\w+) = [\\w.()]*completions\\(\\)\\.take\\(").matcher(lines.get(i));
                if (take.find()) {
                    String variable = take.group(1);
                    boolean checked = lines.subList(i + 1, Math.min(i + 4, lines.size())).stream()
                            .anyMatch(line -> line.contains("if (" + variable + " == null)"));
                    assertTrue(checked, Readme.ROOT.relativize(block.document()) + " line " + (block.firstLine() + i)
                            + ": '" + variable + "' from take() is used without"
                            + " checking for null (take returns null on its timeout): " + lines.get(i).strip());
                }
            }
            assertFalse(block.text().matches("(?s).*completions\\(\\)\\.take\\([^;]*\\)\\s*\\..*"),
                    block.where() + " dereferences take()'s result directly: it is null on a timeout");
        }
    }

    @Test
    void theUseItDependenciesAreTheConsumersPom() throws IOException {
        Readme.Block xml = Readme.blocks(Readme.PATH, "xml").stream()
                .filter(block -> block.section().equals(USE_IT)).findFirst()
                .orElseThrow(() -> new AssertionError("no ```xml block under '## " + USE_IT + "'"));
        String pom = Files.readString(CONSUMER.resolve("pom.xml"));
        String version = System.getProperty("extsock.version");
        assertTrue(version != null && !version.isEmpty(), "the build passes -Dextsock.version");
        List<String> snippet = normalized(xml.lines());
        assertTrue(snippet.contains("<version>" + version + "</version>"),
                "the README's dependency snippet names version " + version + ":\n" + xml.text());
        List<String> pomLines = normalized(pom.lines().toList());
        int at = 0;
        for (String line : snippet) {
            String wanted = line.replace("<version>" + version + "</version>", "<version>@project.version@</version>");
            while (at < pomLines.size() && !pomLines.get(at).equals(wanted)) {
                at++;
            }
            assertTrue(at < pomLines.size(), "the consumer's pom.xml lacks, in the README's order, the line '"
                    + wanted + "' of the README's dependency snippet (" + xml.where() + ")");
            at++;
        }
    }

    private static void run(String name, Readme.Block block) throws Exception {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classes.toAbsolutePath() + File.pathSeparator + testClassPath(), name);
        Path output = Files.createTempFile(classes.getParent(), name, ".out");
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                fail(block.where() + " still running after 60 s:\n" + Files.readString(output));
            }
            String printed = Files.readString(output);
            assertEquals(0, process.exitValue(), block.where() + " failed:\n" + printed);
            Readme.Block next = Readme.followedBy(block);
            if (next != null && next.language().equals("text")) {
                assertEquals(next.text().strip(), printed.strip(),
                        next.where() + " shows other output than the block above it prints");
            }
        } finally {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static String program(String name, Readme.Block block) {
        StringBuilder imports = new StringBuilder();
        StringBuilder body = new StringBuilder();
        List<String> lines = block.lines();
        for (String line : lines) {
            // Keep the line count: line n of the block is line HEADER + n of the class.
            if (line.startsWith("import ")) {
                imports.append(line);
                body.append('\n');
            } else {
                body.append("        ").append(line).append('\n');
            }
        }
        StringBuilder program = new StringBuilder();
        for (String implicit : IMPLICIT_IMPORTS) {
            program.append("import ").append(implicit).append(';');
        }
        program.append(imports).append('\n');
        program.append("// ").append(block.where()).append('\n');
        program.append("public final class ").append(name).append(" {\n");
        program.append("    public static void main(String[] args) throws Exception {\n");
        program.append(body);
        program.append("    }\n}\n");
        return program.toString();
    }

    /** Lines 1 to 4 of a generated class are its header; line 5 is the block's first line. */
    private static String readmeLocation(Diagnostic<? extends JavaFileObject> d) {
        String file = d.getSource() == null ? "" : d.getSource().getName();
        Matcher m = Pattern.compile("Snippet(\\d+)\\.java$").matcher(file);
        if (!m.find() || d.getLineNumber() < 5) {
            return file + ":" + d.getLineNumber();
        }
        Readme.Block block = javaBlocks.get(Integer.parseInt(m.group(1)));
        return Readme.ROOT.relativize(block.document()) + " line " + (block.firstLine() + d.getLineNumber() - 5);
    }

    private static String className(int index) {
        return "Snippet" + index;
    }

    static String testClassPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    private static List<String> normalized(List<String> lines) {
        return lines.stream().map(String::strip).filter(line -> !line.isEmpty()).toList();
    }

    private static int indexOf(List<String> lines, String wanted) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().equals(wanted)) {
                return i;
            }
        }
        throw new AssertionError("no line '" + wanted + "'");
    }
}
