package io.extsock.contract;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The far end of {@link VirtualThreadContract}'s many connections, in a process of its own (so
 * that neither process needs more than one descriptor per connection: 10,000 connections in
 * one JVM would be 20,000 sockets, at or above the usual hard limit). It accepts the
 * connections (switching each to IWARP_MODE on a virtual thread when asked to), reports its
 * memory, then on "SERVE" writes each connection the line {@code port <its client's port>}.
 *
 * <p>Arguments: {@code passthrough|iwarp} and the number of connections. Output lines:
 * {@code LISTENING <port>}, {@code ACCEPTED <n> direct=<bytes> heap=<bytes>}, {@code SERVED}, or
 * {@code FAILED <why>}.
 */
public final class VirtualThreadPeer {

    private VirtualThreadPeer() {
    }

    public static void main(String[] args) throws Exception {
        boolean iwarp = args[0].equals("iwarp");
        int count = Integer.parseInt(args[1]);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        List<Socket> accepted = Collections.synchronizedList(new ArrayList<>());
        try (ExtendedServerSocket server = new ExtendedServerSocket()) {
            if (iwarp) {
                server.setOption(IwarpOptions.IWARP_MODE, true);
            }
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), count);
            out.println("LISTENING " + server.getLocalPort());
            ExecutorService switching = VirtualThreads.perTaskExecutor();
            CountDownLatch ready = new CountDownLatch(count);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            for (int i = 0; i < count; i++) {
                Socket socket = server.accept();
                accepted.add(socket);
                switching.execute(() -> {
                    try {
                        if (iwarp) {
                            ((ExtendedSocket) socket).iwarp();  // the accepted end switches on first use
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    } finally {
                        ready.countDown();
                    }
                });
            }
            ready.await();
            switching.shutdown();
            if (failure.get() != null) {
                out.println("FAILED " + failure.get());
                System.exit(1);
            }
            out.println("ACCEPTED " + count + " " + VirtualThreads.memory());
            if (!"SERVE".equals(commands.readLine())) {
                out.println("FAILED no SERVE command");
                System.exit(1);
            }
            for (Socket socket : accepted) {
                socket.getOutputStream().write(("port " + socket.getPort() + "\n").getBytes(StandardCharsets.US_ASCII));
            }
            out.println("SERVED");
            commands.readLine();  // the test's end (or its stdin closing)
        } finally {
            for (Socket socket : accepted) {
                try {
                    socket.close();
                } catch (Exception ignored) {
                    // exiting
                }
            }
        }
    }
}
