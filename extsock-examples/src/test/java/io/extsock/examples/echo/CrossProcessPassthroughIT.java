package io.extsock.examples.echo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedSocket;
import io.extsock.examples.cli.Cli;
import java.net.InetAddress;
import java.net.Socket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Passthrough ExtendedSockets talking across two JVM processes, and to plain Sockets. */
@Timeout(120)
class CrossProcessPassthroughIT {

    @Test
    void echoAcrossProcessesIsByteExact() throws Exception {
        try (Cli server = Cli.startMain(EchoServerProcess.class, "2")) {
            int port = server.port();

            try (Socket socket = new ExtendedSocket(InetAddress.getLoopbackAddress(), port)) {
                assertTrue(StreamEcho.sendAndVerify(socket, 64L << 20, 48 * 1024 + 7, 1));
            }
            // A plain java.net.Socket client gets the same service from the ExtendedServerSocket.
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                assertTrue(StreamEcho.sendAndVerify(socket, 8L << 20, 1000, 2));
            }
            assertEquals(0, server.waitFor(), server.transcript());
            assertTrue(server.out().contains("DONE"), server.transcript());
        }
    }
}
