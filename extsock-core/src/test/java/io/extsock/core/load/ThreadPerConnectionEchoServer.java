package io.extsock.core.load;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpNegotiationException;
import io.extsock.IwarpOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An IWARP_MODE ExtendedServerSocket whose accept loop hands every accepted socket to a thread
 * of its own, which echoes until end of stream: the usual blocking server. The switch to iWARP
 * (the MPA negotiation as responder) happens on that thread at its first read, so a peer that
 * never negotiates holds that thread until the MPA timeout, and no other.
 */
final class ThreadPerConnectionEchoServer implements AutoCloseable {

    private final ExtendedServerSocket server;
    private final Thread acceptor;
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger negotiationFailures = new AtomicInteger();
    private final AtomicInteger handlersRunning = new AtomicInteger();
    /** Failures other than a negotiation that did not happen and a peer that reset. */
    final Queue<String> errors = new ConcurrentLinkedQueue<>();

    ThreadPerConnectionEchoServer(int mpaTimeoutMillis, int backlog) throws IOException {
        server = new ExtendedServerSocket();
        server.setOption(IwarpOptions.IWARP_MODE, true);
        server.setOption(IwarpOptions.MPA_TIMEOUT, mpaTimeoutMillis);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), backlog);
        acceptor = new Thread(this::acceptLoop, "echo-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
    }

    int accepted() {
        return accepted.get();
    }

    int negotiationFailures() {
        return negotiationFailures.get();
    }

    int handlersRunning() {
        return handlersRunning.get();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            ExtendedSocket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                if (!server.isClosed()) {
                    errors.add("accept: " + e);
                }
                return;
            }
            accepted.incrementAndGet();
            handlersRunning.incrementAndGet();
            Thread handler = new Thread(() -> echo(socket), "echo-" + socket.getPort());
            handler.setDaemon(true);
            handler.start();
        }
    }

    private void echo(ExtendedSocket socket) {
        try (socket) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            byte[] buffer = new byte[16 * 1024];
            int n;
            while ((n = in.read(buffer)) >= 0) {  // the first read negotiates
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IwarpNegotiationException e) {
            negotiationFailures.incrementAndGet();
        } catch (IOException e) {
            if (!server.isClosed() && !String.valueOf(e.getMessage()).contains("reset")) {
                errors.add(socket + ": " + e);
            }
        } finally {
            handlersRunning.decrementAndGet();
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        try {
            acceptor.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
