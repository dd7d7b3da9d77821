package io.extsock.core.proof;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.testkit.wire.RdmapOpcode;
import io.extsock.testkit.wire.Verdict;
import io.extsock.testkit.wire.WireJudge;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every {@link VerbsScenario} across two JVM processes under a capture of the iWARP port, which
 * the {@link WireJudge} must then pass, with every RDMAP opcode the scenarios use on the wire.
 * The child is started inside the capture, so every connection is captured from its first SYN;
 * {@code -Dextsock.proof.pcap=FILE} keeps a copy of the capture.
 */
@Tag("interop")
@Timeout(300)
class TwoProcessVerbsWireIT {

    @Test
    void verbsAcrossTwoProcessesPassTheWireJudge() throws Exception {
        WireJudge judge = WireJudge.ready();
        int port = Proof.freePort();
        Path pcap = Files.createTempFile("extsock-two-process", ".pcapng");
        try {
            // A capture that missed segments is taken again: the child and the scenarios run again.
            Verdict verdict = judge.captureAndJudge(port, pcap, said -> everyScenario(port, said));
            assertTrue(verdict.passed(), verdict.report());
            for (RdmapOpcode opcode : List.of(RdmapOpcode.SEND, RdmapOpcode.SEND_WITH_INVALIDATE,
                    RdmapOpcode.SEND_WITH_SOLICITED_EVENT, RdmapOpcode.WRITE, RdmapOpcode.READ_REQUEST,
                    RdmapOpcode.READ_RESPONSE, RdmapOpcode.TERMINATE)) {
                assertFalse(verdict.fpdus(opcode).isEmpty(), "no " + opcode + " on the wire:\n" + verdict.report());
            }
        } finally {
            String keep = System.getProperty("extsock.proof.pcap");
            if (keep != null && Files.exists(pcap)) {
                Files.copy(pcap, Path.of(keep), StandardCopyOption.REPLACE_EXISTING);
            }
            Files.deleteIfExists(pcap);
        }
    }

    /** Runs every scenario against a child of its own; returns its exit code, what it printed in {@code said}. */
    private static int everyScenario(int port, StringBuilder said) throws Exception {
        List<String> failures = new ArrayList<>();
        try (TwoProcessVerbs child = TwoProcessVerbs.start(port)) {
            for (VerbsScenario scenario : VerbsScenario.values()) {
                try {
                    child.run(scenario);
                } catch (AssertionError | Exception failure) {
                    failures.add(String.valueOf(failure.getMessage()));
                }
            }
            int exitCode = child.quit();
            said.append(child.childOutput());
            if (!failures.isEmpty()) {
                throw new AssertionError(failures.size() + " scenario(s) failed:\n\n" + String.join("\n\n", failures));
            }
            return exitCode;
        }
    }
}
