package io.extsock.core.oracle;

import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * {@link EngineTrafficFixture} (the engine, through the public API) runs in its own JVM
 * under {@code capture_and_check.sh}, and the capture must then pass {@code check_pcap.py
 * --strict} (Wireshark's dissectors plus the lint: versions, reserved bits, QN/opcode, MSN/MO/TO
 * continuity, Read Response vs Read Request, markers, pad, MPA flags).
 */
@Tag("interop")
@Timeout(300)
class WireOracleIT {

    private static WireOracle oracle;

    @BeforeAll
    static void installOracle() throws Exception {
        oracle = WireOracle.ready();
    }

    @ParameterizedTest
    @EnumSource(WireFixture.Scenario.class)
    void wiresharkAcceptsTheTraffic(WireFixture.Scenario scenario) throws Exception {
        int port = freePort();
        Path pcap = Files.createTempFile("extsock-" + scenario, ".pcapng");
        try {
            WireOracle.Verdict verdict = oracle.captureAndCheck(port, pcap, List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"),
                    WireFixture.class.getName(), String.valueOf(port), scenario.name()));
            assertTrue(verdict.passed(), verdict.output());
        } finally {
            Files.deleteIfExists(pcap);
            Files.deleteIfExists(Path.of(pcap + ".dumpcap.log"));
        }
    }

    /** The engine's own traffic, through the public API, is judged the same way. */
    @ParameterizedTest
    @EnumSource(EngineTrafficFixture.Scenario.class)
    void wiresharkAcceptsTheEnginesTraffic(EngineTrafficFixture.Scenario scenario) throws Exception {
        int port = freePort();
        Path pcap = Files.createTempFile("extsock-engine-" + scenario, ".pcapng");
        try {
            WireOracle.Verdict verdict = oracle.captureAndCheck(port, pcap, List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"),
                    EngineTrafficFixture.class.getName(), String.valueOf(port), scenario.name()));
            assertTrue(verdict.passed(), verdict.output());
        } finally {
            Files.deleteIfExists(pcap);
            Files.deleteIfExists(Path.of(pcap + ".dumpcap.log"));
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }
}
