package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * jnr-ffi is an optional dependency of extsock-core: the engine runs on the JDK alone, and only
 * registerPinned needs it. Each case is a child JVM running {@link NativeDependencyProbe}.
 */
@Timeout(120)
class OptionalNativeDependencyTest {

    private static final String RESTRICTED_WARNING = "WARNING: A restricted method";

    @Test
    void withoutJnrTheEngineWorksAndPinningSaysWhatToAdd() throws Exception {
        String classPath = classPath();
        List<String> removed = new ArrayList<>();
        String withoutNative = Arrays.stream(classPath.split(File.pathSeparator))
                .filter(entry -> {
                    boolean nativeSupport = isNativeSupport(entry);
                    if (nativeSupport) {
                        removed.add(entry);
                    }
                    return !nativeSupport;
                })
                .collect(Collectors.joining(File.pathSeparator));
        assertTrue(removed.stream().anyMatch(entry -> Path.of(entry).getFileName().toString().startsWith("jnr-ffi")),
                "the test class path should hold jnr-ffi to leave out: " + classPath);
        assertTrue(removed.stream().anyMatch(entry -> Path.of(entry).getFileName().toString().startsWith("jffi")),
                "and jffi: " + removed);
        assertTrue(removed.stream().anyMatch(entry -> Path.of(entry).getFileName().toString().startsWith("asm")),
                "and ASM: " + removed);

        String output = run(List.of("-cp", withoutNative, NativeDependencyProbe.class.getName(), "pin"));
        assertTrue(output.contains("JNR absent\n"), output);
        assertTrue(output.contains("ECHO hello\n"), output);
        assertTrue(output.contains("WRITE verified\n"), output);
        assertTrue(output.contains("PIN refused: cannot pin 4 KiB in RAM: registerPinned needs com.github.jnr:jnr-ffi"
                + " on the class path (or module path); add it, or register without pinning\n"), output);
        assertTrue(output.contains("REGISTER after works\n"), output);
        assertFalse(output.contains("Exception"), output);
    }

    /** With jnr-ffi there, an engine that does not pin loads none of it (nor jffi, nor ASM); pinning does. */
    @Test
    void withJnrNothingOfItLoadsUntilTheFirstPin() throws Exception {
        String noPin = run(List.of("-Xlog:class+load=info", "-cp", classPath(), NativeDependencyProbe.class.getName()));
        assertTrue(noPin.contains("JNR present\n") && noPin.contains("WRITE verified\n")
                && noPin.contains("REGISTER after works\n"), noPin);
        assertEquals(List.of(), nativeSupportClasses(noPin), noPin);

        String pin = run(List.of("-Xlog:class+load=info", "-cp", classPath(), NativeDependencyProbe.class.getName(),
                "pin"));
        assertTrue(pin.contains("PIN ok 4096\n"), pin);
        assertTrue(nativeSupportClasses(pin).stream().anyMatch(line -> line.contains(" jnr.ffi.")), pin);
        assertTrue(nativeSupportClasses(pin).stream().anyMatch(line -> line.contains(" com.kenai.jffi.")), pin);
    }

    /**
     * The README's advice: jffi loads its native stub through JNI, which JDK 24 and later (JEP
     * 472) warn about once per process; {@code --enable-native-access=ALL-UNNAMED} silences it, and
     * every JDK from 17 accepts the flag.
     */
    @Test
    void enableNativeAccessSilencesTheRestrictedMethodWarning() throws Exception {
        String silenced = run(List.of("--enable-native-access=ALL-UNNAMED", "-cp", classPath(),
                NativeDependencyProbe.class.getName(), "pin"));
        assertTrue(silenced.contains("PIN ok 4096\n"), silenced);
        assertFalse(silenced.contains(RESTRICTED_WARNING), silenced);
        String plain = run(List.of("-cp", classPath(), NativeDependencyProbe.class.getName(), "pin"));
        assertTrue(plain.contains("PIN ok 4096\n"), plain);
        assertEquals(Runtime.version().feature() >= 24, plain.contains(RESTRICTED_WARNING),
                "the warning comes with JNI restrictions (JDK 24+), and only then\n" + plain);
    }

    /** jnr-ffi, its jffi and jnr helpers, and ASM: what the optional dependency brings. */
    private static boolean isNativeSupport(String entry) {
        String name = Path.of(entry).getFileName().toString();
        return name.startsWith("jnr-") || name.startsWith("jffi") || name.startsWith("asm")
                || entry.contains(File.separator + "com" + File.separator + "github" + File.separator + "jnr"
                + File.separator)
                || entry.contains(File.separator + "org" + File.separator + "ow2" + File.separator + "asm"
                + File.separator);
    }

    /** The class-load log lines of jnr, jffi and ASM classes. */
    private static List<String> nativeSupportClasses(String log) {
        return log.lines().filter(line -> line.contains("[class,load]"))
                .filter(line -> line.contains(" jnr.") || line.contains(" com.kenai.jffi.")
                        || line.contains(" org.objectweb.asm."))
                .collect(Collectors.toList());
    }

    private static String classPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    private static String run(List<String> jvmArgs) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m"));
        command.addAll(jvmArgs);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the child JVM did not finish");
        String text = new String(output, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), text);
        return text;
    }
}
