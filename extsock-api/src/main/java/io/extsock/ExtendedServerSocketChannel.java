package io.extsock;

import java.io.IOException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.spi.SelectorProvider;

/**
 * A {@link ServerSocketChannel} of extsock's {@link ExtendedSelectorProvider}: it accepts
 * {@link ExtendedSocketChannel}s, and is otherwise the JDK's server socket channel it runs on.
 *
 * <p>Documented difference from the JDK's channel: {@link #socket()} is the server socket
 * adaptor of the JDK's channel underneath, whose {@code accept} gives plain sockets; accept on
 * this channel.
 */
public abstract class ExtendedServerSocketChannel extends ServerSocketChannel {

    /**
     * For the provider's implementation.
     *
     * @param provider the provider that made it
     */
    protected ExtendedServerSocketChannel(SelectorProvider provider) {
        super(provider);
    }

    /**
     * Opens an unbound server channel, as {@link ServerSocketChannel#open()} does with the JVM's
     * provider.
     *
     * @return the channel
     * @throws IOException if it cannot be opened
     */
    public static ExtendedServerSocketChannel open() throws IOException {
        return ExtendedSelectorProvider.provider().openServerSocketChannel();
    }

    @Override
    public abstract ExtendedSocketChannel accept() throws IOException;
}
