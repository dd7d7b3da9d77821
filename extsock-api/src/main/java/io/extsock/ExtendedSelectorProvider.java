package io.extsock;

import io.extsock.internal.nio.ExtendedSelector;
import io.extsock.internal.nio.PlatformProvider;
import io.extsock.internal.nio.SwitchableServerSocketChannel;
import io.extsock.internal.nio.SwitchableSocketChannel;
import java.io.IOException;
import java.net.ProtocolFamily;
import java.net.StandardProtocolFamily;
import java.nio.channels.Channel;
import java.nio.channels.DatagramChannel;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.AbstractSelector;
import java.nio.channels.spi.SelectorProvider;

/**
 * The NIO side of extsock: a {@link SelectorProvider} whose socket channels are {@link
 * ExtendedSocketChannel}s and {@link ExtendedServerSocketChannel}s, and whose {@link
 * java.nio.channels.Selector}s host those and the JDK's own channels together.
 *
 * <p>Its channels are passthrough: each runs on a channel of the JDK's default provider and
 * behaves as that channel does, those opened for a protocol family (IPv4, IPv6) too. UNIX-domain
 * socket channels, datagram channels, pipes and inherited channels are the JDK's own, made by the
 * default provider; a selector of this provider hosts them beside its own
 * channels, so a program that uses this provider loses none of them.
 *
 * <p>Use it where a library takes a provider ({@code SocketChannel.open} cannot be told one:
 * {@code ExtendedSelectorProvider.provider().openSocketChannel()} can), or make it the JVM's
 * with {@code -Djava.nio.channels.spi.SelectorProvider=io.extsock.ExtendedSelectorProvider}.
 */
public class ExtendedSelectorProvider extends SelectorProvider {

    private static final class Holder {
        static final ExtendedSelectorProvider INSTANCE = new ExtendedSelectorProvider();
    }

    /** The JDK's default provider, which makes the channels ours run on. */
    private final SelectorProvider platform;

    /**
     * Creates the provider. Public, as {@link SelectorProvider#provider()} requires of a
     * provider named by the system property; programs use {@link #provider()}.
     *
     * @throws SecurityException as {@link SelectorProvider#SelectorProvider()} does
     */
    public ExtendedSelectorProvider() {
        this.platform = PlatformProvider.get();
    }

    /**
     * The JVM's one instance of this provider.
     *
     * @return the provider
     */
    public static ExtendedSelectorProvider provider() {
        return Holder.INSTANCE;
    }

    @Override
    public ExtendedSocketChannel openSocketChannel() throws IOException {
        return new SwitchableSocketChannel(this, platform.openSocketChannel());
    }

    @Override
    public ExtendedServerSocketChannel openServerSocketChannel() throws IOException {
        return new SwitchableServerSocketChannel(this, platform.openServerSocketChannel());
    }

    /**
     * A socket channel of the protocol family: extsock's for IPv4 and IPv6, as {@link
     * #openSocketChannel()}; the JDK's own for UNIX-domain sockets, which this provider's
     * selectors host.
     */
    @Override
    public SocketChannel openSocketChannel(ProtocolFamily family) throws IOException {
        SocketChannel channel = platform.openSocketChannel(family);  // refuses a family the JDK does not know, as the JDK's
        return isInternet(family) ? new SwitchableSocketChannel(this, channel) : channel;
    }

    /**
     * A server socket channel of the protocol family: extsock's for IPv4 and IPv6, as {@link
     * #openServerSocketChannel()}; the JDK's own for UNIX-domain sockets, which this provider's
     * selectors host.
     */
    @Override
    public ServerSocketChannel openServerSocketChannel(ProtocolFamily family) throws IOException {
        ServerSocketChannel channel = platform.openServerSocketChannel(family);
        return isInternet(family) ? new SwitchableServerSocketChannel(this, channel) : channel;
    }

    private static boolean isInternet(ProtocolFamily family) {
        return family == StandardProtocolFamily.INET || family == StandardProtocolFamily.INET6;
    }

    @Override
    public AbstractSelector openSelector() throws IOException {
        return new ExtendedSelector(this, platform.openSelector());
    }

    /** A datagram channel of the JDK's own; this provider's selectors host it. */
    @Override
    public DatagramChannel openDatagramChannel() throws IOException {
        return platform.openDatagramChannel();
    }

    /** A datagram channel of the JDK's own; this provider's selectors host it. */
    @Override
    public DatagramChannel openDatagramChannel(ProtocolFamily family) throws IOException {
        return platform.openDatagramChannel(family);
    }

    /** A pipe of the JDK's own; this provider's selectors host its ends. */
    @Override
    public Pipe openPipe() throws IOException {
        return platform.openPipe();
    }

    /** The JDK's inherited channel, as its default provider gives it. */
    @Override
    public Channel inheritedChannel() throws IOException {
        return platform.inheritedChannel();
    }
}
