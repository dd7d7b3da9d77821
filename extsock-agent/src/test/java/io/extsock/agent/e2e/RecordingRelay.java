package io.extsock.agent.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A TCP relay on 127.0.0.1 between a client and a server, in the test's JVM (plain sockets, no
 * agent): it forwards every connection to the server and keeps the first octets each way and
 * their count, so a test can tell iWARP on the wire (an MPA Request, then an MPA Reply) from
 * plain TCP, count the connections the server was offered, and see that a client sent nothing
 * but its MPA Request.
 */
final class RecordingRelay implements AutoCloseable {

    /** The key that opens an MPA Request frame (RFC 5044, 7.1). */
    static final String MPA_REQUEST_KEY = MpaRequestFrame.KEY;
    /** The key that opens an MPA Reply frame. */
    static final String MPA_REPLY_KEY = "MPA ID Rep Frame";

    private static final int RECORDED = 4096;

    private final ServerSocket listener;
    private final int serverPort;
    private final List<Connection> connections = new CopyOnWriteArrayList<>();
    private final List<Socket> open = new CopyOnWriteArrayList<>();

    RecordingRelay(int serverPort) throws IOException {
        this.serverPort = serverPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "relay-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** The connections relayed so far, in the order they came. */
    List<Connection> connections() {
        return new ArrayList<>(connections);
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), serverPort), 5000);
                open.add(client);
                open.add(server);
                Connection connection = new Connection(client.getPort(), server.getLocalPort());
                connections.add(connection);
                pump(client, server, connection.fromClient, "relay-c2s");
                pump(server, client, connection.fromServer, "relay-s2c");
            } catch (IOException e) {
                if (!listener.isClosed()) {
                    throw new IllegalStateException("relay failed", e);
                }
            }
        }
    }

    private static void pump(Socket from, Socket to, Recording recording, String name) {
        Thread pump = new Thread(() -> {
            byte[] buffer = new byte[65536];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) > 0) {
                    recording.add(buffer, n);
                    out.write(buffer, 0, n);
                }
                to.shutdownOutput();
            } catch (SocketException closed) {
                // the other direction or the test closed it
            } catch (IOException e) {
                throw new IllegalStateException(name + " failed", e);
            } finally {
                recording.end();
                try {
                    from.close();
                    to.close();
                } catch (IOException ignored) {
                    // closing is all that is left to do
                }
            }
        }, name);
        pump.setDaemon(true);
        pump.start();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket socket : open) {
            socket.close();
        }
    }

    /** One relayed connection: the first octets each way, and the relay's port towards the server. */
    static final class Connection {
        private final int clientPort;
        private final int portTowardsServer;
        private final Recording fromClient = new Recording();
        private final Recording fromServer = new Recording();

        Connection(int clientPort, int portTowardsServer) {
            this.clientPort = clientPort;
            this.portTowardsServer = portTowardsServer;
        }

        /** The client's port: the local port its side of the connection had. */
        int clientPort() {
            return clientPort;
        }

        /** The local port of the relay's connection to the server: the server sees it as the peer's. */
        int portTowardsServer() {
            return portTowardsServer;
        }

        /** The first 16 octets the client sent, as ASCII (fewer if it sent fewer). */
        String clientOpening() {
            return fromClient.opening();
        }

        /** The first 16 octets the server sent, as ASCII (fewer if it sent fewer). */
        String serverOpening() {
            return fromServer.opening();
        }

        /**
         * Whether the client sent one MPA Request and not one octet more, once its side of the
         * connection ended: what a client that found no iWARP peer and did not fall back sends.
         *
         * @throws InterruptedException if interrupted while waiting for the client's side to end
         */
        boolean clientSentAnMpaRequestAlone() throws InterruptedException {
            return MpaRequestFrame.isAlone(fromClient.awaitEnd(), fromClient.total());
        }
    }

    private static final class Recording {
        private final byte[] first = new byte[RECORDED];
        private int length;
        private long total;
        private final CountDownLatch ended = new CountDownLatch(1);

        synchronized void add(byte[] bytes, int n) {
            int take = Math.min(n, RECORDED - length);
            System.arraycopy(bytes, 0, first, length, take);
            length += take;
            total += n;
        }

        synchronized String opening() {
            return new String(Arrays.copyOf(first, Math.min(length, 16)), StandardCharsets.ISO_8859_1);
        }

        synchronized long total() {
            return total;
        }

        void end() {
            ended.countDown();
        }

        /** The first octets, once this direction ended (its sender closed, or the relay did). */
        byte[] awaitEnd() throws InterruptedException {
            if (!ended.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the direction did not end within 30 s");
            }
            synchronized (this) {
                return Arrays.copyOf(first, length);
            }
        }
    }
}
