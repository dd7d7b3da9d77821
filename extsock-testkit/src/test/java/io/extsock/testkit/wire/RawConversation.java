package io.extsock.testkit.wire;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * One TCP connection on loopback with both ends in this process: the initiator (client) and
 * the responder (accepted), each with an {@link MpaSender}. Both ends read and discard what
 * arrives, so windows stay open and closing never resets.
 */
final class RawConversation implements AutoCloseable {

    final MpaSender initiator;
    final MpaSender responder;
    private final Socket initiatorSocket;
    private final Socket responderSocket;
    private final Thread initiatorDrain;
    private final Thread responderDrain;

    private RawConversation(Socket initiatorSocket, Socket responderSocket) throws IOException {
        this.initiatorSocket = initiatorSocket;
        this.responderSocket = responderSocket;
        initiatorSocket.setTcpNoDelay(true);
        responderSocket.setTcpNoDelay(true);
        initiator = new MpaSender(initiatorSocket.getOutputStream());
        responder = new MpaSender(responderSocket.getOutputStream());
        initiatorDrain = drain(initiatorSocket);
        responderDrain = drain(responderSocket);
    }

    static RawConversation open(ServerSocket server) throws IOException {
        Socket client = new Socket(server.getInetAddress(), server.getLocalPort());
        return new RawConversation(client, server.accept());
    }

    private static Thread drain(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        Thread drain = new Thread(() -> {
            byte[] sink = new byte[8192];
            try {
                while (in.read(sink) >= 0) {
                    // discard
                }
            } catch (IOException closed) {
                // the test closed it
            }
        });
        drain.setDaemon(true);
        drain.start();
        return drain;
    }

    /** Request from the initiator, Reply from the responder, each its own segment; CRC and markers as RFC 5044 settles them. */
    void handshake(int requestFlags, int requestRevision, byte[] requestData, int replyFlags, int replyRevision,
                   byte[] replyData) throws IOException {
        initiator.raw(IwarpBytes.setupFrame(false, requestFlags, requestRevision, requestData));
        responder.raw(IwarpBytes.setupFrame(true, replyFlags, replyRevision, replyData));
        boolean crc = ((requestFlags | replyFlags) & IwarpBytes.C) != 0;
        boolean markers = ((requestFlags | replyFlags) & IwarpBytes.M) != 0;
        initiator.negotiated(crc, markers);
        responder.negotiated(crc, markers);
    }

    void handshake(int flags) throws IOException {
        handshake(flags, 1, new byte[0], flags, 1, new byte[0]);
    }

    @Override
    public void close() throws IOException {
        try {
            initiatorSocket.shutdownOutput();
            responderSocket.shutdownOutput();
            initiatorDrain.join(5_000);
            responderDrain.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            initiatorSocket.close();
            responderSocket.close();
        }
    }
}
