package io.extsock.bench;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Two ExtendedSockets on loopback switched to verbs-only IWARP_MODE (the application owns
 * Sends and Receives: {@link IwarpOptions#STREAMS} false), with their buffers registered, their
 * Receive rings posted and each other's buffer descriptors exchanged, as an RDMA application
 * sets up before its work starts. The client end is the MPA initiator.
 */
final class VerbsPair implements AutoCloseable {

    /** Receives each side keeps posted. */
    static final int RING_DEPTH = 16;
    /** Send-queue requests each side may have outstanding (and slots of its outbox and read sink). */
    static final int SEND_SLOTS = 16;

    final VerbsEndpoint client;
    final VerbsEndpoint server;
    private final ExtendedSocket clientSocket;
    private final ExtendedSocket serverSocket;

    private VerbsPair(VerbsEndpoint client, VerbsEndpoint server, ExtendedSocket clientSocket,
                      ExtendedSocket serverSocket) {
        this.client = client;
        this.server = server;
        this.clientSocket = clientSocket;
        this.serverSocket = serverSocket;
    }

    /**
     * @param crc            MPA CRC on both sides (on when either asks)
     * @param largestMessage the largest message or RDMA transfer any measurement makes
     */
    static VerbsPair open(boolean crc, int largestMessage) throws Exception {
        VerbsEndpoint client = new VerbsEndpoint("client", largestMessage, RING_DEPTH, SEND_SLOTS);
        VerbsEndpoint server = new VerbsEndpoint("server", largestMessage, RING_DEPTH, SEND_SLOTS);
        ExtendedSocket clientSocket;
        ExtendedSocket serverSocket;
        try (ExtendedServerSocket listener = new ExtendedServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            clientSocket = new ExtendedSocket(InetAddress.getLoopbackAddress(), listener.getLocalPort());
            serverSocket = listener.accept();
        }
        VerbsPair pair = new VerbsPair(client, server, clientSocket, serverSocket);
        try {
            prepare(clientSocket, crc, client);
            prepare(serverSocket, crc, server);
            CompletableFuture<Void> responder = CompletableFuture.runAsync(() -> {
                try {
                    serverSocket.setOption(IwarpOptions.IWARP_MODE, true);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            clientSocket.setOption(IwarpOptions.IWARP_MODE, true);
            responder.get(30, TimeUnit.SECONDS);
            if (client.settings().crc() != crc || server.settings().crc() != crc) {
                throw new IOException("asked for CRC " + (crc ? "on" : "off") + ", negotiated " + client.settings());
            }
            client.advertise();
            server.advertise();
            client.learnPeer();
            server.learnPeer();
            return pair;
        } catch (Exception e) {
            pair.close();
            throw e;
        }
    }

    private static void prepare(ExtendedSocket socket, boolean crc, VerbsEndpoint endpoint) throws IOException {
        socket.setTcpNoDelay(true);
        socket.setOption(IwarpOptions.CRC, crc);
        socket.setOption(IwarpOptions.STREAMS, false);
        socket.setOption(IwarpOptions.SETUP, endpoint::attach);  // the ring is posted before the peer can send
    }

    @Override
    public void close() throws IOException {
        clientSocket.close();
        serverSocket.close();
    }
}
