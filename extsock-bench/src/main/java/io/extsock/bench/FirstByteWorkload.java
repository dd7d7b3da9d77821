package io.extsock.bench;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A program that knows nothing of extsock, for {@link AgentFallbackCost} to run with and without
 * the agent: it opens connections to 127.0.0.1:PORT one after the other and prints, per
 * connection, {@code first_byte_ms T}: the time from before {@code new Socket(...)} to the first
 * octet from the server. For a server that greets first it only reads; for one that waits for its
 * client it first sends a line.
 *
 * <p>Usage: {@code FirstByteWorkload PORT greets-first|waits-for-client CONNECTIONS}
 */
public final class FirstByteWorkload {

    private FirstByteWorkload() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        boolean clientSpeaksFirst = args[1].equals("waits-for-client");
        int connections = Integer.parseInt(args[2]);
        for (int i = 0; i < connections; i++) {
            long start = System.nanoTime();
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                socket.setSoTimeout(30_000);
                if (clientSpeaksFirst) {
                    socket.getOutputStream().write("hello\n".getBytes(StandardCharsets.US_ASCII));
                }
                InputStream in = socket.getInputStream();
                if (in.read() < 0) {
                    throw new IllegalStateException("the server closed the connection before its first octet");
                }
                System.out.printf("first_byte_ms %.3f%n", (System.nanoTime() - start) / 1e6);
            }
        }
    }
}
