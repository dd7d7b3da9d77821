package io.extsock.core.proof;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.memory.FreeBeyondBudgetProbe;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A library must not make its users' programs print JVM warnings. Freeing direct memory at once
 * takes sun.misc.Unsafe.invokeCleaner, which warns from JDK 24 (JEP 498): there the pool leaves
 * blocks beyond its idle budget to the collector instead, and before it frees them at once.
 */
@Timeout(120)
class NoJvmWarningsTest {

    @Test
    void givingBackBeyondTheBudgetPrintsNoWarning() throws Exception {
        try (JavaProcess probe = JavaProcess.startMain(FreeBeyondBudgetProbe.class)) {
            assertEquals(0, probe.waitFor(100, TimeUnit.SECONDS), probe.output());
            String output = probe.output();
            boolean freedAtOnce = Runtime.version().feature() < 24;
            assertTrue(output.contains("freed 4096 now " + freedAtOnce), output);
            List<String> warnings = Arrays.stream(output.split("\n")).filter(line -> line.contains("WARNING")).toList();
            assertEquals(List.of(), warnings, "the child JVM printed:\n" + output);
        }
    }
}
