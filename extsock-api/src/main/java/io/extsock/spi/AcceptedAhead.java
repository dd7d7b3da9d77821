package io.extsock.spi;

import java.io.IOException;
import java.nio.channels.SocketChannel;

/**
 * A connection an {@link IwarpAcceptor} negotiated before the application accepted it.
 *
 * @param channel  the connection: owned by the session if it switched; open, in blocking mode
 *                 and the caller's if it fell back
 * @param session  the switched connection, or null if it fell back
 * @param fellBack with FALLBACK, why the peer is not an iWARP peer (every octet it sent is in
 *                 it, to be read first); null if it switched
 */
public record AcceptedAhead(SocketChannel channel, IwarpSession session, NotAnIwarpPeerException fellBack) {

    /**
     * Checks that exactly one of {@code session} and {@code fellBack} is given.
     *
     * @param channel  the connection
     * @param session  the switched connection, or null
     * @param fellBack why the connection fell back, or null
     * @throws IllegalArgumentException if both or neither are given, or no channel
     */
    public AcceptedAhead {
        if (channel == null || (session == null) == (fellBack == null)) {
            throw new IllegalArgumentException("a connection accepted ahead has a channel and either a session or"
                    + " the reason it fell back");
        }
    }

    /**
     * Closes a connection that no application will use: its session, if it switched, and its
     * channel. Errors are ignored: its peer sees the connection end either way.
     */
    public void discard() {
        try {
            if (session != null) {
                session.stream().close();
            }
        } catch (IOException | RuntimeException e) {
            // the channel's close below ends it too
        }
        try {
            channel.close();
        } catch (IOException e) {
            // closing is all that is left to do with it
        }
    }
}
