package io.extsock.core.oracle;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.testkit.wire.Verdict;
import io.extsock.testkit.wire.WireJudge;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Wireshark judges our bytes: each scenario of {@link WireFixture} (the codecs alone) and of
 * {@link EngineTrafficFixture} (the engine, through the public API) runs in its own JVM under
 * a capture on lo, and the capture must pass the {@link WireJudge}: Wireshark's dissectors
 * (nothing malformed, no expert error or unforgiven warning, good CRCs, every octet decoded)
 * and its strict lint (versions, reserved bits, QN/opcode, MSN/MO/TO continuity, Read Response
 * vs Read Request, markers, pad, MPA flags).
 */
@Tag("interop")
@Timeout(300)
class WireOracleIT {

    private static WireJudge judge;

    @BeforeAll
    static void installJudge() throws Exception {
        judge = WireJudge.ready();
    }

    @ParameterizedTest
    @EnumSource(WireFixture.Scenario.class)
    void wiresharkAcceptsTheTraffic(WireFixture.Scenario scenario) throws Exception {
        int port = freePort();
        Path pcap = Files.createTempFile("extsock-" + scenario, ".pcapng");
        try {
            Verdict verdict = judge.captureAndJudge(port, pcap, List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"),
                    WireFixture.class.getName(), String.valueOf(port), scenario.name()));
            assertTrue(verdict.passed(), verdict.report());
        } finally {
            Files.deleteIfExists(pcap);
        }
    }

    /** The engine's own traffic, through the public API, is judged the same way. */
    @ParameterizedTest
    @EnumSource(EngineTrafficFixture.Scenario.class)
    void wiresharkAcceptsTheEnginesTraffic(EngineTrafficFixture.Scenario scenario) throws Exception {
        int port = freePort();
        Path pcap = Files.createTempFile("extsock-engine-" + scenario, ".pcapng");
        try {
            Verdict verdict = judge.captureAndJudge(port, pcap, List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"),
                    EngineTrafficFixture.class.getName(), String.valueOf(port), scenario.name()));
            assertTrue(verdict.passed(), verdict.report());
        } finally {
            Files.deleteIfExists(pcap);
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }
}
