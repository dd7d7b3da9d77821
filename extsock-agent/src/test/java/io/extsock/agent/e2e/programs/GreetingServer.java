package io.extsock.agent.e2e.programs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import javax.net.ServerSocketFactory;

/**
 * An ordinary server that speaks first and knows nothing of extsock: for each connection, one at a
 * time, it sends {@code 220 greeting}, reads one line and answers it in capitals. What goes wrong
 * with a connection it prints as one line, {@code error: ...}, and goes on with the next. It
 * prints {@code listening on PORT} once it accepts, and {@code served LINE} per answer.
 *
 * <p>Usage: {@code GreetingServer PORT [factory]} (on 127.0.0.1; {@code factory}: the server
 * socket comes from {@code javax.net.ServerSocketFactory.getDefault()})
 */
public final class GreetingServer {

    private GreetingServer() {
    }

    /**
     * @param arguments the port
     * @throws IOException if the server socket cannot be opened
     */
    public static void main(String[] arguments) throws IOException {
        int port = Integer.parseInt(arguments[0]);
        boolean factory = arguments.length > 1 && arguments[1].equals("factory");
        try (ServerSocket server = factory
                ? ServerSocketFactory.getDefault().createServerSocket(port, 50, InetAddress.getLoopbackAddress())
                : new ServerSocket(port, 50, InetAddress.getLoopbackAddress())) {
            System.out.println("listening on " + server.getLocalPort());
            while (true) {
                try (Socket connection = server.accept()) {
                    OutputStream out = connection.getOutputStream();
                    out.write("220 greeting\n".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    String line = new BufferedReader(new InputStreamReader(connection.getInputStream(),
                            StandardCharsets.UTF_8)).readLine();
                    if (line == null) {
                        System.out.println("error: the client closed the connection");
                        continue;
                    }
                    out.write((line.toUpperCase(Locale.ROOT) + "\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    System.out.println("served " + line);
                } catch (IOException e) {
                    System.out.println("error: " + e);
                }
            }
        }
    }
}
