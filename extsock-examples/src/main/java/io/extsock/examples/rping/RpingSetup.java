package io.extsock.examples.rping;

import io.extsock.ExtendedSocket;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.IwarpSetup;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Prepares each rping connection before its peer can send: registers the buffers and posts the
 * Receive for the first message, as rping does before it connects or accepts (an rping client
 * sends as soon as the connection is up, and a Send that finds no Receive ends the connection).
 * The command picks the prepared peer up once the socket is in IWARP_MODE.
 */
final class RpingSetup implements IwarpSetup {

    private final RpingOptions options;
    private final Map<IwarpConnection, RpingPeer> prepared = new ConcurrentHashMap<>();

    RpingSetup(RpingOptions options) {
        this.options = options;
    }

    @Override
    public void prepare(IwarpConnection connection) throws IOException {
        prepared.put(connection, RpingPeer.prepare(connection, options));
    }

    /** The peer prepared for this socket's connection (which its first use negotiates, if need be). */
    RpingPeer peerOf(ExtendedSocket socket) throws IOException {
        RpingPeer peer = prepared.remove(socket.iwarp());
        if (peer == null) {
            throw new IllegalStateException("no rping buffers were prepared for " + socket);
        }
        return peer;
    }
}
