package io.extsock.agent.e2e.programs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import javax.net.SocketFactory;

/**
 * An ordinary line client that knows nothing of extsock: it connects with {@code new Socket()},
 * reads the server's greeting first if told to, sends one line and prints the line it gets back.
 * Whatever goes wrong it prints as one line, {@code error: ...}, and exits with status 1: the
 * faults tests read what a program sees under the agent.
 *
 * <p>Usage: {@code LineClient HOST PORT TIMEOUT_MS greeting|no-greeting LINE [factory]} (the
 * timeout is the connect's and every read's; {@code factory}: the socket comes from {@code
 * javax.net.SocketFactory.getDefault()}, as libraries that take a factory make theirs)
 */
public final class LineClient {

    private LineClient() {
    }

    /**
     * @param arguments host, port, timeout in milliseconds, whether the server greets first, the line
     */
    public static void main(String[] arguments) {
        int timeout = Integer.parseInt(arguments[2]);
        boolean greeting = arguments[3].equals("greeting");
        boolean factory = arguments.length > 5 && arguments[5].equals("factory");
        try (Socket socket = factory ? SocketFactory.getDefault().createSocket() : new Socket()) {
            socket.connect(new InetSocketAddress(arguments[0], Integer.parseInt(arguments[1])), timeout);
            socket.setSoTimeout(timeout);
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            if (greeting) {
                System.out.println(lineFrom(in));
            }
            OutputStream out = socket.getOutputStream();
            out.write((arguments[4] + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            System.out.println(lineFrom(in));
        } catch (IOException e) {
            System.out.println("error: " + e);
            System.exit(1);
        }
    }

    private static String lineFrom(BufferedReader in) throws IOException {
        String line = in.readLine();
        if (line == null) {
            throw new IOException("the server closed the connection");
        }
        return line;
    }
}
