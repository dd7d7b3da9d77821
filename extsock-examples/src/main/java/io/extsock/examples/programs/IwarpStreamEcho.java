package io.extsock.examples.programs;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.verbs.IwarpSettings;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

/**
 * A line echo whose connection runs in IWARP_MODE: the code is what it would be over
 * java.net.Socket, and underneath every line travels as an RDMAP Send in MPA frames.
 */
public final class IwarpStreamEcho {

    public static void main(String[] args) throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ExtendedServerSocket server = new ExtendedServerSocket(0, 1, loopback)) {
            server.setOption(IwarpOptions.IWARP_MODE, true);       // every accepted connection
            FutureTask<Long> echo = new FutureTask<>(() -> {
                try (Socket accepted = server.accept()) {           // switches on its first use
                    return accepted.getInputStream().transferTo(accepted.getOutputStream());
                }
            });
            new Thread(echo, "echo server").start();

            try (ExtendedSocket socket = new ExtendedSocket(loopback, server.getLocalPort())) {
                socket.setOption(IwarpOptions.IWARP_MODE, true);    // negotiates MPA with the server
                IwarpSettings agreed = socket.iwarp().settings();   // what both ends agreed, not what was asked
                System.out.println("IWARP_MODE: MPA revision " + agreed.mpaRevision()
                        + ", CRC " + (agreed.crc() ? "on" : "off"));
                PrintWriter out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8);
                BufferedReader in = new BufferedReader(
                        new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
                for (String line : new String[] {"hello", "over iWARP", "goodbye"}) {
                    out.println(line);
                    System.out.println("echoed: " + in.readLine());
                }
                socket.shutdownOutput();                            // the server's transferTo ends
                System.out.println("the server echoed " + echo.get(10, TimeUnit.SECONDS) + " bytes");
            }
        }
    }
}
