package io.extsock.examples.rping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.examples.cli.Cli;
import io.extsock.examples.cli.CpuHog;
import io.extsock.testkit.siw.SiwGuest;
import io.extsock.testkit.wire.WireJudge;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The siw rping interop of {@link SiwInteropIT}, round after round, with every core kept busy by
 * a {@link CpuHog}: timing races between consecutive connections (the persistent siw server still
 * tearing down the previous one, a first Send or Read arriving early, a timeout too short for an
 * emulated guest on a loaded host) show only under load and only now and then.
 *
 * <p>{@code -Dextsock.siw.repeat=N} sets the number of rounds (default 1: one real round, so
 * that the interop suite exercises the harness without taking hours). Every round runs all its
 * pings, even after a failure, and the test fails at the end with the count and each failure's
 * transcript and guest diagnostics. {@code -Dextsock.siw.load=false} leaves the cores idle, as
 * the interop suite runs. {@code -Dextsock.siw.capture=true} captures each extsock client run
 * on lo and has the {@link WireJudge} judge it: a failure then says what the wire carried (a
 * bad MPA CRC in the capture is the sender's; a good one our receiver's), and its capture is
 * kept under {@code target/wire-captures}:
 *
 * <pre>
 * mvn -B -pl extsock-examples -am verify -Pinterop -Dextsock.test.groups=interop -Dinvoker.skip=true \
 *     -Dit.test=SiwRpingUnderLoadIT -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dextsock.siw.repeat=100
 * </pre>
 */
@Tag("interop")
class SiwRpingUnderLoadIT {

    private static final int ROUNDS = Integer.getInteger("extsock.siw.repeat", 1);
    private static final boolean LOAD = Boolean.parseBoolean(System.getProperty("extsock.siw.load", "true"));
    private static final boolean CAPTURE = Boolean.getBoolean("extsock.siw.capture");

    private static SiwGuest guest;
    /** The judge of the captured runs ({@code -Dextsock.siw.capture=true}), or null. */
    private static WireJudge judge;

    private final List<String> failures = new ArrayList<>();
    private int runs;

    @BeforeAll
    static void bootGuest() throws Exception {
        guest = SiwGuest.boot();
        judge = CAPTURE ? WireJudge.ready() : null;
    }

    @AfterAll
    static void stopGuest() throws Exception {
        if (guest != null) {
            guest.close();
        }
    }

    @Test
    void rpingInteropPassesEveryRoundWithEveryCoreBusy() throws Exception {
        assertTrue(ROUNDS >= 1, "-Dextsock.siw.repeat must be at least 1: " + ROUNDS);
        long started = System.nanoTime();
        try (CpuHog hog = LOAD ? CpuHog.onEveryCore() : null) {
            for (int round = 1; round <= ROUNDS; round++) {
                playRound(round);
                System.out.printf("siw rping (%d spinning threads%s): round %d of %d, %d runs, %d failed, %d s%n",
                        hog == null ? 0 : hog.threads(), CAPTURE ? ", captured" : "", round, ROUNDS, runs,
                        failures.size(), (System.nanoTime() - started) / 1_000_000_000L);
            }
        }
        assertEquals(List.of(), failures, failures.size() + " of " + runs + " rping runs failed in " + ROUNDS + " rounds");
    }

    /** One round: SiwInteropIT's rping cases, then the sequence that once failed under load. */
    private void playRound(int round) throws Exception {
        String crc = round % 2 == 1 ? "--crc" : "--no-crc";
        clientRun(round, guest.rpingPort(), 64, 20, crc);
        for (int[] sizeAndCount : new int[][] {{26, 10}, {1000, 10}, {4096, 5}, {65535, 3}}) {
            clientRun(round, guest.largeRpingPort(), sizeAndCount[0], sizeAndCount[1], crc);
        }
        // One failure in 63 under load: -S 65535 right after a long -S 4000 run on the same server.
        clientRun(round, guest.largeRpingPort(), 4000, 200, crc);
        clientRun(round, guest.largeRpingPort(), 65535, 3, crc);
        reverseRun(round, crc);
    }

    private void clientRun(int round, int port, int size, int count, String crc) throws Exception {
        runs++;
        String run = "extsock client -S " + size + " -C " + count + " " + crc + " on guest port " + port;
        if (CAPTURE) {
            capturedClientRun(round, run, port, size, count, crc);
            return;
        }
        try {
            RpingTranscript.assertPings(ping(port, size, count, crc), size, count);
        } catch (AssertionError e) {
            if (!crc.equals("--crc") || !endedForSiwsBadCrc(e)) {
                failed(round, run, e);
                return;
            }
            // siw now and then sends an FPDU whose CRC does not match its bytes, which SiwInteropIT's
            // captured runs prove (RpingTranscript); uncaptured, the run is said and made once more.
            System.out.println("our end ended " + run + " with a Terminate for an MPA CRC error in an FPDU from"
                    + " siw, as it must; running once more: " + e.getMessage());
            try {
                RpingTranscript.assertPings(ping(port, size, count, crc), size, count);
            } catch (AssertionError again) {
                failed(round, run + " (run twice)", again);
            }
        }
    }

    /** Whether our end, the client, ended the run with a Terminate for an MPA CRC error it received. */
    private static boolean endedForSiwsBadCrc(AssertionError e) {
        String message = String.valueOf(e.getMessage());
        return message.contains("terminated by this side: MPA error: MPA CRC error");
    }

    /** A client run under a capture: a failed run, or traffic the judge rejects, fails with its verdict. */
    private void capturedClientRun(int round, String run, int port, int size, int count, String crc) throws Exception {
        try {
            RpingTranscript.assertCapturedPings(judge, port, () -> ping(port, size, count, crc), size, count);
        } catch (AssertionError e) {
            failed(round, run, e);
        }
    }

    private static Cli ping(int port, int size, int count, String crc) throws Exception {
        return Cli.run("rping", "-c", "-a", "127.0.0.1", "-p", "" + port, "-S", "" + size, "-C", "" + count,
                "-v", "-V", crc);
    }

    /** The guest's rping client against an extsock rping server, through the guest's relay. */
    private void reverseRun(int round, String crc) throws Exception {
        runs++;
        try (Cli server = Cli.server("rping", "-s", "-a", "127.0.0.1", "-p", "0", "-S", "65535", "-v",
                "--mpa-timeout", "120000", crc);
             SiwGuest.ReverseRelay relay = guest.openReverseRelay(server.port())) {
            SiwGuest.ExecResult client = guest.exec("rping -c -a " + relay.guestAddress() + " -p " + relay.guestPort()
                    + " -C 5 -S 1000 -v -V");
            try {
                assertEquals(0, client.exitCode(), "guest rping client\n" + client.output() + "\n" + server.transcript());
                assertEquals(5, client.output().lines().filter(line -> line.startsWith("ping data: rdma-ping-")).count(),
                        client.output());
                assertEquals(0, server.waitFor(), "one client served, then the server exits\n" + server.transcript());
            } catch (AssertionError e) {
                failed(round, "siw client -S 1000 -C 5 against extsock server " + crc, e);
            }
        }
    }

    private void failed(int round, String run, AssertionError e) {
        String failure = "round " + round + ", " + run + ": " + e.getMessage() + guest.diagnostics();
        System.out.println("FAILED " + failure);
        failures.add(failure);
    }
}
