package io.extsock.examples.rping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.examples.cli.Cli;
import io.extsock.testkit.wire.Direction;
import io.extsock.testkit.wire.Finding;
import io.extsock.testkit.wire.Verdict;
import io.extsock.testkit.wire.WireJudge;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** What an {@code extsock rping -c -v -V} run that passed printed. */
final class RpingTranscript {

    private RpingTranscript() {
    }

    /** Exit 0, every ping verified (-V) and echoed (-v): rping's own text, as the server wrote it back. */
    static void assertPings(Cli client, int size, int count) throws Exception {
        assertEquals(0, client.waitFor(), client.transcript());
        List<String> pings = client.out().lines().filter(line -> line.startsWith("ping data: ")).toList();
        assertEquals(count, pings.size(), client.transcript());
        for (int i = 0; i < count; i++) {
            String text = pings.get(i).substring("ping data: ".length());
            assertTrue(text.startsWith("rdma-ping-" + i + ": "), client.transcript());
            assertEquals(size - 1, text.length(), "the whole buffer but its NUL\n" + client.transcript());
        }
        assertEquals("", client.err(), client.transcript());
    }

    /**
     * As {@link #assertPings}, for a run captured on lo (port {@code port}) and judged: it also
     * fails when the judge rejects the traffic. A failure says how many FPDUs on the wire carried
     * a bad MPA CRC, so that a CRC error our end reports names its culprit: a bad CRC in the
     * capture is the sender's, a good one our receiver's. The judge keeps a rejected capture
     * under {@code target/wire-captures}.
     *
     * <p>Linux siw, the responder here, now and then sends an FPDU whose CRC does not match the
     * bytes on the wire (about once in several hundred runs; the judge's own CRC of the captured
     * bytes disagrees with the one siw put in the frame). Our end must then end the connection
     * with a Terminate for an MPA CRC error, and does. A run that failed in exactly that way (every
     * finding a bad CRC in a frame from the responder, none in ours, and our end reporting the
     * CRC error) is said on standard error and run once more, which must pass; any other
     * failure fails at once.
     */
    static void assertCapturedPings(WireJudge judge, int port, Callable<Cli> run, int size, int count) throws Exception {
        Verdict verdict = capturedRun(judge, port, run, size, count);
        if (!verdict.passed() && onlyThePeersBadCrc(verdict)) {
            System.err.println("siw sent an FPDU with a bad MPA CRC and our end ended the connection with a Terminate"
                    + " for it, as it must; running once more: " + verdict.findings());
            verdict = capturedRun(judge, port, run, size, count);
        }
        assertTrue(verdict.passed(), "the captured run failed; BAD_CRC findings on the wire: "
                + verdict.findings(Finding.Kind.BAD_CRC).size() + "\n" + verdict.report());
    }

    private static Verdict capturedRun(WireJudge judge, int port, Callable<Cli> run, int size, int count)
            throws Exception {
        Path pcap = Files.createTempFile("siw-rping", ".pcapng");
        try {
            return judge.captureAndJudge(port, pcap, output -> {
                Cli client = run.call();
                output.append(client.transcript());
                assertPings(client, size, count);
                return 0;
            });
        } finally {
            Files.deleteIfExists(pcap);
        }
    }

    /** Every finding a bad CRC sent by the responder (siw), and our end, the initiator, said so. */
    private static boolean onlyThePeersBadCrc(Verdict verdict) {
        List<Finding> findings = verdict.findings();
        return !findings.isEmpty()
                && findings.stream().allMatch(f -> f.kind() == Finding.Kind.BAD_CRC
                        && f.direction() == Direction.RESPONDER_TO_INITIATOR)
                && verdict.commandOutput().contains("MPA CRC error");
    }
}
