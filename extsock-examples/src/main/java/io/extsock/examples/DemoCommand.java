package io.extsock.examples;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code extsock demo}: what extsock does, in one process on loopback, in under a minute.
 * The same stream echo code ({@link StreamEcho}) runs over plain {@code java.net.Socket} and
 * over ExtendedSocket; every echoed byte is checked.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Runs the same socket code over plain TCP and over ExtendedSocket on "
                + "loopback, verifies every byte and prints a table.")
final class DemoCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--size", defaultValue = "67108864",
            description = "Bytes to echo per run (default: ${DEFAULT-VALUE}).")
    long size;

    /** One way of making sockets for the demo. */
    private interface Sockets {
        ServerSocket server() throws IOException;

        Socket client() throws IOException;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        out.println("extsock demo: the same stream echo code over each kind of socket, " + Units.bytes(size)
                + " each, every byte checked");
        out.println();
        ResultTable table = new ResultTable("what ran", "bytes", "time", "throughput", "verified");
        boolean allVerified = true;
        allVerified &= echo(table, "stream echo, java.net.Socket", new Sockets() {
            public ServerSocket server() throws IOException {
                return new ServerSocket();
            }

            public Socket client() {
                return new Socket();
            }
        });
        allVerified &= echo(table, "stream echo, ExtendedSocket (passthrough)", new Sockets() {
            public ServerSocket server() throws IOException {
                return new ExtendedServerSocket();
            }

            public Socket client() {
                return new ExtendedSocket();
            }
        });
        table.print(out);
        out.println();
        out.println(allVerified ? "all verified" : "VERIFICATION FAILED");
        return allVerified ? 0 : UserErrorHandler.FAILURE;
    }

    private boolean echo(ResultTable table, String what, Sockets sockets) throws Exception {
        try (ServerSocket server = sockets.server()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Thread echoServer = new Thread(() -> {
                try {
                    StreamEcho.serveOne(server);
                } catch (IOException e) {
                    spec.commandLine().getErr().println("echo server: " + e.getMessage());
                }
            }, "demo-echo-server");
            echoServer.start();
            try (Socket client = sockets.client()) {
                client.connect(server.getLocalSocketAddress());
                long start = System.nanoTime();
                boolean verified = StreamEcho.sendAndVerify(client, size, 64 * 1024, 42);
                long elapsed = System.nanoTime() - start;
                table.add(what, Units.bytes(size), Units.seconds(elapsed),
                        Units.throughput(size, elapsed), verified ? "yes" : "NO");
                echoServer.join();
                return verified;
            }
        }
    }
}
