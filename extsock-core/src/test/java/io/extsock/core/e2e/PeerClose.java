package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;

/** How a test sees that the server closed a connection it refused or gave up on. */
public final class PeerClose {

    private PeerClose() {
    }

    /**
     * The next read ends the stream, or fails with a reset (the server closed with our octets
     * unread): either way the server closed it. A byte, or a read timeout, fails.
     *
     * @param what what the assertion is about, for its message
     */
    public static void assertClosedByPeer(Socket socket, String what) throws IOException {
        try {
            int read = socket.getInputStream().read();
            assertEquals(-1, read, what + ": the peer sent a byte: " + read);
        } catch (SocketException reset) {
            assertTrue(String.valueOf(reset.getMessage()).toLowerCase().contains("reset"), what + ": " + reset);
        }
    }
}
