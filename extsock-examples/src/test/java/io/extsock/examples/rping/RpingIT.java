package io.extsock.examples.rping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.examples.cli.Cli;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code extsock rping} against itself on loopback: rping's options and output, and its errors.
 * Against Linux siw's rping: {@link SiwInteropIT}.
 */
@Timeout(300)
class RpingIT {

    @Test
    void pingsItselfAndVerifiesEveryPing() throws Exception {
        // "-s -v -V", as rping tutorials run it: the server ignores the client's -V, as rping does.
        try (Cli server = Cli.server("rping", "-s", "-a", "127.0.0.1", "-p", "0", "-S", "1000", "-v", "-V")) {
            Cli client = Cli.run("rping", "-c", "-a", "127.0.0.1", "-p", "" + server.port(), "-S", "1000", "-C", "30",
                    "-v", "-V");
            assertEquals(0, client.waitFor(), client.transcript());
            List<String> pings = client.out().lines().filter(line -> line.startsWith("ping data: rdma-ping-")).toList();
            assertEquals(30, pings.size(), client.transcript());
            assertTrue(pings.get(0).startsWith("ping data: rdma-ping-0: ABCDEF"), client.transcript());
            assertTrue(pings.get(1).startsWith("ping data: rdma-ping-1: BCDEFG"), "each ping starts one letter on");
            assertEquals(0, server.waitFor(), "without -P the server serves one client\n" + server.transcript());
            assertEquals(30, server.out().lines().filter(line -> line.startsWith("server ping data: ")).count(),
                    server.transcript());
        }
    }

    @Test
    void aPersistentServerServesClientsAtOnce() throws Exception {
        try (Cli server = Cli.server("rping", "-s", "-P", "-a", "127.0.0.1", "-p", "0", "--no-crc")) {
            List<Cli> clients = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                clients.add(Cli.start("rping", "-c", "-a", "127.0.0.1", "-p", "" + server.port(), "-C", "50", "-V"));
            }
            for (Cli client : clients) {
                assertEquals(0, client.waitFor(), client.transcript());
                assertEquals("", client.out() + client.err(), "rping prints nothing without -v\n" + client.transcript());
            }
        }
    }

    @Test
    void rpingsOwnArgumentChecks() throws Exception {
        Cli.run("rping", "-c", "-S", "25").assertUserError(2, "rping", "Invalid size 25 (valid range is 26 to 65535)");
        Cli.run("rping", "-c", "-S", "65536").assertUserError(2, "rping", "Invalid size 65536");
        Cli.run("rping", "-c", "-C", "-1").assertUserError(2, "rping", "Invalid count -1");
        Cli.run("rping", "-a", "127.0.0.1").assertUserError(2, "rping", "Missing required argument");
        Cli.run("rping", "-c", "-s").assertUserError(2, "rping", "mutually exclusive");
        Cli help = Cli.run("rping", "--help");
        assertEquals(0, help.waitFor(), help.transcript());
        assertTrue(help.out().contains("-V") && help.out().contains("validate ping data"), help.transcript());
        Cli version = Cli.run("rping", "--version");
        assertEquals(0, version.waitFor(), version.transcript());
        assertTrue(version.out().startsWith("extsock "), version.transcript());
    }

    @Test
    void aServerThatIsNotThereIsOneLine() throws Exception {
        try (Cli server = Cli.server("rping", "-s", "-a", "127.0.0.1", "-p", "0")) {
            int port = server.port();
            server.terminate();
            server.waitFor();  // gone, its port closed
            Cli.run("rping", "-c", "-a", "127.0.0.1", "-p", "" + port, "-C", "1")
                    .assertUserError(1, "rping", "connection refused: 127.0.0.1:" + port);
        }
    }
}
