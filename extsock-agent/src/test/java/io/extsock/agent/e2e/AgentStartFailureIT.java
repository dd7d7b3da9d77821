package io.extsock.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A configuration the agent cannot start with stops the JVM before the program's main method:
 * exit status 1 and one line on standard error, on whichever JDK runs the tests. The program is
 * H2's TCP server, which would otherwise run until stopped.
 */
class AgentStartFailureIT {

    private static final Duration EXIT_LIMIT = Duration.ofSeconds(30);

    @TempDir
    Path directory;

    @Test
    void aBadRuleStopsTheJvmNamingFileLineAndProblem() throws Exception {
        Path rules = Files.write(directory.resolve("bad.rules"), List.of(
                "# the database", "iwarp connect 127.0.0.1 9092", "iwrap accept * 9092"));
        assertStopsWith("rules=" + rules + ",log=info",
                "extsock agent: rules file " + rules + ", line 3: unknown action 'iwrap': expected iwarp or tcp");
    }

    @Test
    void aMissingRulesFileStopsTheJvmNamingIt() throws Exception {
        Path rules = directory.resolve("missing.rules");
        assertStopsWith("rules=" + rules, "extsock agent: rules file " + rules + ": no such file");
    }

    @Test
    void aBadArgumentStopsTheJvmNamingIt() throws Exception {
        Path rules = Files.write(directory.resolve("good.rules"), List.of("iwarp connect * *"));
        assertStopsWith("rules=" + rules + ",fallback=maybe",
                "extsock agent: bad value 'fallback=maybe': expected on or off");
    }

    @Test
    void aBadFallbackWaitStopsTheJvmNamingIt() throws Exception {
        Path rules = Files.write(directory.resolve("good.rules"), List.of("iwarp connect * *"));
        assertStopsWith("rules=" + rules + ",fallback-wait=1s",
                "extsock agent: bad value 'fallback-wait=1s': expected milliseconds, a whole number from 1 to 2147483647");
    }

    private void assertStopsWith(String agentArguments, String line) throws IOException, InterruptedException {
        int port = H2UnderAgentIT.freePort();
        try (AgentJvm jvm = AgentJvm.start(agentArguments, List.of(AgentJvm.locationOf(org.h2.Driver.class)), directory,
                "org.h2.tools.Server", "-tcp", "-tcpPort", String.valueOf(port))) {
            assertEquals(1, jvm.awaitExit(EXIT_LIMIT), jvm.toString());
            assertEquals(List.of(line), jvm.stderrLines(), jvm.toString());
            assertEquals("", jvm.stdout(), "the program never ran: " + jvm);
        }
    }
}
