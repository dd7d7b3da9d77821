package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ways pinning is refused, each in a child JVM running {@link PinningProbe}: the
 * locked-memory limit (the message must name RLIMIT_MEMLOCK and how to raise it), and a
 * platform where jnr-ffi finds no native stub (pinning fails clearly, the rest keeps working).
 */
@Timeout(60)
class PinningRefusalTest {

    /** CAP_IPC_LOCK, include/uapi/linux/capability.h: lifts RLIMIT_MEMLOCK for its holder. */
    private static final int CAP_IPC_LOCK = 14;
    private static final String SETPRIV = "/usr/bin/setpriv";

    @Test
    void pinningPastRlimitMemlockNamesTheLimit() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "Linux only: RLIMIT_MEMLOCK via ulimit -l");
        List<String> command = new ArrayList<>();
        if (holdsIpcLock()) {
            // Root with CAP_IPC_LOCK may lock without limit (mlock(2)); drop the capability for the child.
            assumeTrue(Files.isExecutable(Path.of(SETPRIV)), "running with CAP_IPC_LOCK and no setpriv to drop it");
            command.addAll(List.of(SETPRIV, "--bounding-set=-ipc_lock"));
        }
        command.addAll(List.of("bash", "-c", "ulimit -l 64 && exec \"$0\" \"$@\""));
        command.addAll(java(System.getProperty("java.class.path"), String.valueOf(16 << 20)));
        String output = run(command);
        assertTrue(output.contains("REFUSED cannot pin 16 MiB in RAM: mlock failed (ENOMEM): RLIMIT_MEMLOCK allows"
                + " 64 KiB locked per process (ulimit -l); raise it (ulimit -l unlimited, or memlock in"
                + " /etc/security/limits.conf) or register without pinning"), output);
        assertTrue(output.contains("UNPINNED works"), output);
    }

    @Test
    void withoutJnrNativeStubPinningFailsClearlyAndTheRestWorks() throws Exception {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String withoutStub = Arrays.stream(classPath.split(File.pathSeparator))
                .filter(entry -> !(entry.contains("jffi") && entry.endsWith("-native.jar")))
                .collect(Collectors.joining(File.pathSeparator));
        assumeTrue(!withoutStub.equals(classPath), "the class path lists no jffi native jar to leave out: "
                + classPath);
        String output = run(java(withoutStub, "4096"));
        assertTrue(output.contains("REFUSED cannot pin 4 KiB in RAM: native access through jnr-ffi is unavailable on"
                + " this platform ("), output);
        assertTrue(output.contains("register without pinning"), output);
        assertTrue(output.contains("UNPINNED works"), output);
    }

    private static List<String> java(String classPath, String size) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return List.of(java, "-Xmx64m", "-XX:TieredStopAtLevel=1", "-cp", classPath,
                PinningProbe.class.getName(), size);
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the child JVM did not finish");
        String text = new String(output, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), text);
        return text;
    }

    /** Whether this process holds CAP_IPC_LOCK in its effective set (CapEff in /proc/self/status). */
    private static boolean holdsIpcLock() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("CapEff:")) {
                return (Long.parseUnsignedLong(line.substring("CapEff:".length()).trim(), 16) >>> CAP_IPC_LOCK & 1) != 0;
            }
        }
        return false;
    }
}
