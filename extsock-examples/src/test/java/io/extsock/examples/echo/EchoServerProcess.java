package io.extsock.examples.echo;

import io.extsock.ExtendedServerSocket;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * The far end of the cross-process tests: an ExtendedServerSocket on an ephemeral loopback
 * port that echoes the given number of connections, then exits. Prints "listening on
 * 127.0.0.1:n" first, as the command line's servers do.
 */
public final class EchoServerProcess {

    private EchoServerProcess() {
    }

    public static void main(String[] args) throws Exception {
        int connections = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        try (ServerSocket server = new ExtendedServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            System.out.println("listening on 127.0.0.1:" + server.getLocalPort());
            System.out.flush();
            for (int i = 0; i < connections; i++) {
                StreamEcho.serveOne(server);
            }
        }
        System.out.println("DONE");
    }
}
