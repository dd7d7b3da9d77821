package io.extsock.examples.programs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.examples.cli.Cli;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Each example program runs as a reader would run it, in a JVM of its own, and prints what it shows. */
@Timeout(120)
class ProgramsIT {

    @Test
    void iwarpStreamEchoEchoesEveryLineOverTheSwitchedConnection() throws Exception {
        String out = run(IwarpStreamEcho.class);
        assertLines(out, "IWARP_MODE: MPA revision 2, CRC on", "echoed: hello", "echoed: over iWARP",
                "echoed: goodbye", "the server echoed 25 bytes");
    }

    @Test
    void rdmaWriteAndReadMoveTheBytesBothWays() throws Exception {
        String out = run(RdmaWriteAndRead.class);
        assertTrue(Pattern.compile("(?m)^the server's memory: RemoteBuffer\\[stag=0x\\p{XDigit}{8}, offset=0, length=4096]$")
                .matcher(out).find(), out);
        assertLines(out, "request 1, RDMA_WRITE: SUCCESS", "request 2, RDMA_READ: SUCCESS",
                "RDMA Read brought: server data", "RDMA Write left: client data");
    }

    @Test
    void sendAndReceiveCarryAQuestionAndItsReply() throws Exception {
        String out = run(SendAndReceive.class);
        assertLines(out, "client's Send: SUCCESS", "server received: hello", "client received: you said: hello");
    }

    private static String run(Class<?> program) throws Exception {
        try (Cli cli = Cli.startMain(program)) {
            assertEquals(0, cli.waitFor(), cli.transcript());
            assertEquals("", cli.err(), cli.transcript());
            return cli.out();
        }
    }

    /** Every line printed, in any order (the server's lines come from its own thread). */
    private static void assertLines(String out, String... expected) {
        List<String> lines = out.lines().toList();
        for (String line : expected) {
            assertTrue(lines.contains(line), "no line \"" + line + "\" in:\n" + out);
        }
    }
}
