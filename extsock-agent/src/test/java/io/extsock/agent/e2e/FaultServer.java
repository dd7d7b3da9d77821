package io.extsock.agent.e2e;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A plain TCP server on 127.0.0.1, in the test's JVM, that misbehaves on the first connection it
 * accepts and then serves a line protocol: each later connection (and the first, when it is
 * {@link FirstConnection#SILENT}) is answered {@code HELLO} once it sent the line {@code hello},
 * and gets no octet for anything else. It keeps what each connection sent, so a test can count
 * the connections a client made and see what went out on each.
 */
final class FaultServer implements AutoCloseable {

    /** What the first connection gets. */
    enum FirstConnection {
        /** The line protocol, like the others: nothing for an MPA Request, a server silent to it. */
        SILENT,
        /** Closed at once, before anything is read: a peer gone during negotiation. */
        CLOSED_AT_ONCE,
        /** {@code MPA ID Rep} (10 of the key's 16 octets), then closed: a peer gone inside its MPA Reply's key. */
        HALF_A_REPLY_KEY,
        /** The whole key {@code MPA ID Rep Frame}, then closed: an iWARP peer gone inside its MPA Reply. */
        WHOLE_REPLY_KEY
    }

    private final ServerSocket listener;
    private final FirstConnection first;
    private final List<Received> connections = new CopyOnWriteArrayList<>();
    private final List<Socket> open = new CopyOnWriteArrayList<>();

    FaultServer(FirstConnection first) throws IOException {
        this.first = first;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "fault-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** What each connection accepted so far sent, in the order they came. */
    List<Received> connections() {
        return new ArrayList<>(connections);
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket connection = listener.accept();
                open.add(connection);
                Received received = new Received();
                boolean isFirst = connections.isEmpty();
                connections.add(received);
                Thread serve = new Thread(() -> serve(connection, isFirst ? first : FirstConnection.SILENT, received),
                        "fault-connection");
                serve.setDaemon(true);
                serve.start();
            } catch (IOException e) {
                if (!listener.isClosed()) {
                    throw new IllegalStateException("fault server failed", e);
                }
            }
        }
    }

    private static void serve(Socket connection, FirstConnection behaviour, Received received) {
        try (connection) {
            OutputStream out = connection.getOutputStream();
            switch (behaviour) {
                case CLOSED_AT_ONCE:
                    return;
                case HALF_A_REPLY_KEY:
                    out.write("MPA ID Rep".getBytes(StandardCharsets.US_ASCII));
                    return;
                case WHOLE_REPLY_KEY:
                    out.write("MPA ID Rep Frame".getBytes(StandardCharsets.US_ASCII));
                    return;
                default:
                    break;
            }
            InputStream in = connection.getInputStream();
            int octet;
            while ((octet = in.read()) >= 0) {
                received.add(octet);
                if (received.endsWith("hello\n")) {
                    out.write("HELLO\n".getBytes(StandardCharsets.US_ASCII));
                }
            }
        } catch (IOException e) {
            // the client gave the connection up: what it sent is recorded
        } finally {
            received.end();
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket socket : open) {
            socket.close();
        }
    }

    /** What one connection sent, complete once the connection ended. */
    static final class Received {
        private final ByteArrayOutputStream octets = new ByteArrayOutputStream();
        private final java.util.concurrent.CountDownLatch ended = new java.util.concurrent.CountDownLatch(1);

        synchronized void add(int octet) {
            octets.write(octet);
        }

        synchronized boolean endsWith(String text) {
            String sent = octets.toString(StandardCharsets.ISO_8859_1);
            return sent.endsWith(text);
        }

        void end() {
            ended.countDown();
        }

        /** The octets, once the connection ended. */
        byte[] awaitEnd() throws InterruptedException {
            if (!ended.await(30, java.util.concurrent.TimeUnit.SECONDS)) {
                throw new IllegalStateException("the connection did not end within 30 s");
            }
            synchronized (this) {
                return octets.toByteArray();
            }
        }

        /** Whether the connection carried one MPA Request and nothing else, once it ended. */
        boolean mpaRequestAlone() throws InterruptedException {
            byte[] sent = awaitEnd();
            return MpaRequestFrame.isAlone(sent, sent.length);
        }

        /** What the connection carried, as ASCII, once it ended. */
        String text() throws InterruptedException {
            return new String(awaitEnd(), StandardCharsets.ISO_8859_1);
        }
    }
}
