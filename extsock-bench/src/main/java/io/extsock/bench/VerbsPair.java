package io.extsock.bench;

import io.extsock.IwarpOptions;
import io.extsock.testkit.pair.IwarpSocketPair;
import java.io.IOException;
import java.net.StandardSocketOptions;

/**
 * Two ExtendedSockets on loopback switched to verbs-only IWARP_MODE (the application owns
 * Sends and Receives: {@link IwarpOptions#STREAMS} false), with their buffers registered, their
 * Receive rings posted and each other's buffer descriptors exchanged, as an RDMA application
 * sets up before its work starts. The client end is the MPA initiator. The sockets are the
 * testkit's {@link IwarpSocketPair}, the pair the tests use.
 */
final class VerbsPair implements AutoCloseable {

    /** Receives each side keeps posted. */
    static final int RING_DEPTH = 16;
    /** Send-queue requests each side may have outstanding (and slots of its outbox and read sink). */
    static final int SEND_SLOTS = 16;

    final VerbsEndpoint client;
    final VerbsEndpoint server;
    private final IwarpSocketPair sockets;

    private VerbsPair(VerbsEndpoint client, VerbsEndpoint server, IwarpSocketPair sockets) {
        this.client = client;
        this.server = server;
        this.sockets = sockets;
    }

    /**
     * @param crc            MPA CRC on both sides (on when either asks)
     * @param largestMessage the largest message or RDMA transfer any measurement makes
     */
    static VerbsPair open(boolean crc, int largestMessage) throws Exception {
        VerbsEndpoint client = new VerbsEndpoint("client", largestMessage, RING_DEPTH, SEND_SLOTS);
        VerbsEndpoint server = new VerbsEndpoint("server", largestMessage, RING_DEPTH, SEND_SLOTS);
        IwarpSocketPair sockets = IwarpSocketPair.builder()
                .option(StandardSocketOptions.TCP_NODELAY, true)
                .option(IwarpOptions.CRC, crc)
                .option(IwarpOptions.STREAMS, false)
                // the ring is posted before the peer can send
                .clientOption(IwarpOptions.SETUP, client::attach)
                .serverOption(IwarpOptions.SETUP, server::attach)
                .open();
        VerbsPair pair = new VerbsPair(client, server, sockets);
        try {
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

    @Override
    public void close() throws IOException {
        sockets.close();
    }
}
