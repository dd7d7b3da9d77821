package io.extsock.examples.rping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.examples.cli.Cli;
import io.extsock.examples.cli.Main;
import io.extsock.testkit.siw.SiwGuest;
import io.extsock.testkit.wire.RdmapOpcode;
import io.extsock.testkit.wire.Verdict;
import io.extsock.testkit.wire.WireJudge;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code extsock rping} against rdma-core's rping on Linux's in-kernel soft-iWARP (siw), both
 * ways, with CRC asked for and not, and the traffic judged by the project's wire judge (Wireshark's
 * iWARP dissectors and a strict lint). Boots the project's siw guest ({@link SiwGuest}, from
 * extsock-testkit); a guest that cannot be built or does not come up fails these tests with the
 * reason, it never skips them.
 */
@Tag("interop")
@Timeout(900)
class SiwInteropIT {

    private static SiwGuest guest;

    @TempDir
    Path directory;

    @BeforeAll
    static void bootGuest() throws Exception {
        guest = SiwGuest.boot();
    }

    @AfterAll
    static void stopGuest() throws Exception {
        if (guest != null) {
            guest.close();
        }
    }

    /** The guest's standing server (64-byte buffers), rping's defaults, CRC asked for and not. */
    @Test
    void extsockClientPingsSiwServer() throws Exception {
        for (String crc : List.of("--crc", "--no-crc")) {
            withGuestDiagnostics(() -> RpingTranscript.assertPings(ping(guest.rpingPort(), 64, 20, crc), 64, 20));
        }
    }

    /**
     * Every size rping allows, from its smallest to its largest, on the guest's -S 65535 server.
     * The runs with CRCs are captured and judged: one of them, about once in several hundred,
     * ended with our end reporting an MPA CRC error on an FPDU from siw, and the capture says
     * whose the bad CRC was (see {@link RpingTranscript#assertCapturedPings}).
     */
    @Test
    void extsockClientPingsSiwServerAtEverySize() throws Exception {
        int[][] sizesAndCounts = {{26, 10}, {1000, 10}, {4096, 5}, {65535, 3}};
        WireJudge judge = WireJudge.ready();
        int port = guest.largeRpingPort();
        for (String crc : List.of("--crc", "--no-crc")) {
            for (int[] run : sizesAndCounts) {
                withGuestDiagnostics(() -> {
                    if (crc.equals("--crc")) {
                        RpingTranscript.assertCapturedPings(judge, port, () -> ping(port, run[0], run[1], crc), run[0],
                                run[1]);
                    } else {
                        RpingTranscript.assertPings(ping(port, run[0], run[1], crc), run[0], run[1]);
                    }
                });
            }
        }
    }

    /**
     * The traffic of the client runs above passes the project's wire judge (Wireshark's iWARP
     * dissectors and the strict lint), CRC on and off, and holds the whole rping exchange.
     */
    @Test
    void extsockClientTrafficPassesTheWireJudge() throws Exception {
        WireJudge judge = WireJudge.ready();
        for (String crc : List.of("--crc", "--no-crc")) {
            Path pcap = directory.resolve("rping" + crc + ".pcapng");
            Verdict verdict = judge.captureAndJudge(guest.largeRpingPort(), pcap, extsockCommand("rping", "-c", "-a",
                    "127.0.0.1", "-p", "" + guest.largeRpingPort(), "-S", "4000", "-C", "5", "-V", crc));
            assertTrue(verdict.passed(), verdict.report() + guest.diagnostics());
            for (RdmapOpcode opcode : List.of(RdmapOpcode.READ_REQUEST, RdmapOpcode.READ_RESPONSE, RdmapOpcode.WRITE)) {
                assertFalse(verdict.fpdus(opcode).isEmpty(), "the capture holds the rping exchange: no " + opcode
                        + "\n" + verdict.report());
            }
        }
    }

    /**
     * Data larger than the siw server's buffer: our Read Response overruns siw's sink, siw sends a
     * Terminate and ends the connection; we say which end ended it and why, in one line, no hang.
     */
    @Test
    void aPingLargerThanTheServersBufferFailsInOneLine() throws Exception {
        Cli client = Cli.run("rping", "-c", "-a", "127.0.0.1", "-p", "" + guest.rpingPort(), "-S", "100", "-C", "1");
        client.assertUserError(1, "rping", "the server 127.0.0.1:" + guest.rpingPort()
                + " ended the connection with a Terminate during ping 0: ");
        assertTrue(client.err().contains("base or bounds violation"), client.transcript());
    }

    /** The guest's rping client against an extsock rping server, through the guest's relay. */
    @Test
    void siwClientPingsExtsockServer() throws Exception {
        for (String crc : List.of("--crc", "--no-crc")) {
            try (Cli server = Cli.server("rping", "-s", "-a", "127.0.0.1", "-p", "0", "-S", "65535", "-v",
                    "--mpa-timeout", "120000", crc);
                 SiwGuest.ReverseRelay relay = guest.openReverseRelay(server.port())) {
                SiwGuest.ExecResult client = guest.exec("rping -c -a " + relay.guestAddress() + " -p " + relay.guestPort()
                        + " -C 5 -S 1000 -v -V");
                String output = client.output();
                assertEquals(0, client.exitCode(), "guest rping client\n" + output + "\n" + server.transcript()
                        + guest.diagnostics());
                assertEquals(5, output.lines().filter(line -> line.startsWith("ping data: rdma-ping-")).count(), output);
                assertEquals(0, server.waitFor(), "one client served, then the server exits\n" + server.transcript());
                assertEquals(5, server.out().lines().filter(line -> line.startsWith("server ping data: rdma-ping-")).count(),
                        server.transcript());
            }
        }
    }

    private static Cli ping(int port, int size, int count, String crc) throws Exception {
        return Cli.run("rping", "-c", "-a", "127.0.0.1", "-p", "" + port, "-S", "" + size, "-C", "" + count, "-v", "-V",
                crc);
    }

    /** A check of client runs whose failure also says what the guest saw (its console and dmesg). */
    private interface ClientCheck {
        void run() throws Exception;
    }

    private static void withGuestDiagnostics(ClientCheck check) throws Exception {
        try {
            check.run();
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + guest.diagnostics(), e);
        }
    }

    private static List<String> extsockCommand(String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        return command;
    }
}
