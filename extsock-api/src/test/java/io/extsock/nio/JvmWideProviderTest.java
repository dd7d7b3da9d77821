package io.extsock.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedSelectorProvider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * extsock's provider as the JVM's, named by the system property, in a JVM of its own: the JDK's
 * {@code SocketChannel.open()} and {@code Selector.open()} give extsock's, which run on the
 * JDK's default provider; without access to that provider, the first channel says which option
 * opens it.
 */
@Timeout(120)
class JvmWideProviderTest {

    @Test
    void theJdksFactoriesGiveExtsocksChannelsAndSelectors() throws Exception {
        Result run = run("--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED");

        assertEquals(0, run.exit, run.output);
        assertTrue(run.output.contains("provider " + ExtendedSelectorProvider.class.getName()), run.output);
        assertTrue(run.output.contains("channel io.extsock.internal.nio.SwitchableSocketChannel"), run.output);
        assertTrue(run.output.contains("selector io.extsock.internal.nio.ExtendedSelector"), run.output);
        assertTrue(run.output.contains("echoed 42"), run.output);
    }

    @Test
    void withoutAccessToTheJdksProviderTheErrorNamesTheOption() throws Exception {
        Result run = run();

        assertTrue(run.exit != 0, run.output);
        assertTrue(run.output.contains("--add-exports java.base/sun.nio.ch=ALL-UNNAMED"), run.output);
    }

    private record Result(int exit, String output) {
    }

    private static Result run(String... jvmOptions) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(jvmOptions));
        command.add("-Djava.nio.channels.spi.SelectorProvider=" + ExtendedSelectorProvider.class.getName());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(JvmWideProviderProbe.class.getName());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the probe JVM never ended");
        return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }
}
