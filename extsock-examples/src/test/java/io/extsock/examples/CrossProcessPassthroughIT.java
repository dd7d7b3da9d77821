package io.extsock.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedSocket;
import java.net.InetAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Passthrough ExtendedSockets talking across two JVM processes, and to plain Sockets. */
@Timeout(120)
class CrossProcessPassthroughIT {

    @Test
    void echoAcrossProcessesIsByteExact() throws Exception {
        try (JavaProcess server = JavaProcess.startMain(EchoServerProcess.class, "2")) {
            String first = server.nextLine(30, TimeUnit.SECONDS);
            assertTrue(first.startsWith("PORT "), first);
            int port = Integer.parseInt(first.substring(5).trim());

            try (Socket socket = new ExtendedSocket(InetAddress.getLoopbackAddress(), port)) {
                assertTrue(StreamEcho.sendAndVerify(socket, 64L << 20, 48 * 1024 + 7, 1));
            }
            // A plain java.net.Socket client gets the same service from the ExtendedServerSocket.
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                assertTrue(StreamEcho.sendAndVerify(socket, 8L << 20, 1000, 2));
            }
            assertEquals(0, server.waitFor(30, TimeUnit.SECONDS), server.output());
            assertTrue(server.output().contains("DONE"), server.output());
        }
    }
}
