package io.extsock;

import io.extsock.verbs.IwarpConnection;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.SelectorProvider;
import java.util.Optional;

/**
 * A {@link SocketChannel} of extsock's {@link ExtendedSelectorProvider}: plain TCP, as the
 * JDK's socket channel it runs on, in blocking and non-blocking mode, registered with a
 * selector of the same provider.
 *
 * <p>Documented difference from the JDK's channel: {@link #socket()} is a real socket on the
 * same connection whose {@code getChannel()} is the JDK's channel underneath rather than this
 * one; its shutdowns, options, streams and close are this channel's (the iWARP stream's in
 * IWARP_MODE, where SO_TIMEOUT does not bound its stream reads).
 */
public abstract class ExtendedSocketChannel extends SocketChannel {

    /**
     * For the provider's implementation.
     *
     * @param provider the provider that made it
     */
    protected ExtendedSocketChannel(SelectorProvider provider) {
        super(provider);
    }

    /**
     * The extended side of this connection in IWARP_MODE: registered memory, work requests
     * (Send, Receive, RDMA Write and Read) and their completions, as {@link ExtendedSocket#iwarp()}.
     *
     * @return the connection's extended side; the same object on every call
     * @throws java.net.SocketException if the connection is not in IWARP_MODE
     * @throws java.nio.channels.ClosedChannelException if the channel is closed
     * @throws IwarpNegotiationException if this is an accepted channel whose deferred switch
     *         fails now; the channel is then closed
     */
    public abstract IwarpConnection iwarp() throws IOException;

    /**
     * Why this channel runs plain TCP although IWARP_MODE was asked for: with {@link
     * IwarpOptions#FALLBACK}, the switch found that the peer is not an iWARP peer and went on as
     * plain TCP, as {@link ExtendedSocket#iwarpFallbackCause()} says for a socket. An accepted
     * channel decides at its first use.
     *
     * @return the negotiation failure that made the switch fall back; empty if none did
     */
    public abstract Optional<IwarpNegotiationException> iwarpFallbackCause();

    /**
     * Opens an unconnected channel, as {@link SocketChannel#open()} does with the JVM's provider.
     *
     * @return the channel
     * @throws IOException if it cannot be opened
     */
    public static ExtendedSocketChannel open() throws IOException {
        return ExtendedSelectorProvider.provider().openSocketChannel();
    }

    /**
     * Opens a channel and connects it, as {@link SocketChannel#open(SocketAddress)} does.
     *
     * @param remote where to connect
     * @return the connected channel
     * @throws IOException if it cannot be opened or connected (the channel is closed then)
     */
    public static ExtendedSocketChannel open(SocketAddress remote) throws IOException {
        ExtendedSocketChannel channel = open();
        try {
            channel.connect(remote);
        } catch (IOException | RuntimeException e) {
            try {
                channel.close();
            } catch (IOException closeFailure) {
                e.addSuppressed(closeFailure);
            }
            throw e;
        }
        return channel;
    }
}
