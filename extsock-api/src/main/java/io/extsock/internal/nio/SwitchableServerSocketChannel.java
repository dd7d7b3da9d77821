package io.extsock.internal.nio;

import io.extsock.ExtendedServerSocketChannel;
import io.extsock.ExtendedSocketChannel;
import io.extsock.IwarpOptions;
import io.extsock.internal.IwarpOptionValues;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.SelectorProvider;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * An {@link ExtendedServerSocketChannel} in passthrough: every call goes to the JDK's server
 * socket channel underneath, and each connection it accepts becomes a {@link
 * SwitchableSocketChannel} of the same provider. A blocking accept runs between {@link
 * #begin} and {@link #end}, as {@link SwitchableSocketChannel}'s blocking calls do.
 */
public final class SwitchableServerSocketChannel extends ExtendedServerSocketChannel implements PlatformBacked {

    private final ServerSocketChannel platform;
    /** The iWARP options its connections inherit: with IWARP_MODE, each switches on its first use. */
    private final Map<SocketOption<?>, Object> iwarpSettings = Collections.synchronizedMap(new LinkedHashMap<>());
    private final PlatformKeys platformKeys = new PlatformKeys();

    /**
     * A server channel on a server channel of the JDK's.
     *
     * @param provider the provider that made it
     * @param platform the JDK's channel it runs on, which it owns from now on
     */
    public SwitchableServerSocketChannel(SelectorProvider provider, ServerSocketChannel platform) {
        super(provider);
        this.platform = platform;
    }

    @Override
    public SelectableChannel platformChannel() {
        return platform;
    }

    @Override
    public void watchedBy(SelectionKey platformKey) {
        platformKeys.add(platformKey);
    }

    @Override
    public ServerSocketChannel bind(SocketAddress local, int backlog) throws IOException {
        platform.bind(local, backlog);
        return this;
    }

    @Override
    public <T> ServerSocketChannel setOption(SocketOption<T> name, T value) throws IOException {
        if (IwarpOptions.ALL.contains(name)) {
            if (!isOpen()) {
                throw new ClosedChannelException();
            }
            IwarpOptionValues.store(iwarpSettings, name, value);
            return this;
        }
        platform.setOption(name, value);
        return this;
    }

    @Override
    public <T> T getOption(SocketOption<T> name) throws IOException {
        if (IwarpOptions.ALL.contains(name)) {
            if (!isOpen()) {
                throw new ClosedChannelException();
            }
            return IwarpOptionValues.copyOfValueIn(iwarpSettings, name);
        }
        return platform.getOption(name);
    }

    /** The JDK channel's options and {@link IwarpOptions#ALL}, which its connections inherit. */
    @Override
    public Set<SocketOption<?>> supportedOptions() {
        return ChannelOptions.withIwarp(platform.supportedOptions());
    }

    @Override
    public ServerSocket socket() {
        return platform.socket();
    }

    @Override
    public ExtendedSocketChannel accept() throws IOException {
        SocketChannel accepted;
        if (!isBlocking()) {
            accepted = platform.accept();
        } else {
            boolean completed = false;
            try {
                begin();
                accepted = platform.accept();
                completed = true;
            } catch (ClosedByInterruptException e) {
                completed = true;  // ended as the JDK's call ended: no AsynchronousCloseException from end()
                close();  // the interrupt closed the JDK's channel: this one goes with it
                throw e;
            } finally {
                end(completed);
            }
        }
        if (accepted == null) {
            return null;
        }
        SwitchableSocketChannel connection = new SwitchableSocketChannel(provider(), accepted, true);
        connection.acceptedWith(Map.copyOf(iwarpSettings));
        return connection;
    }

    @Override
    public SocketAddress getLocalAddress() throws IOException {
        return platform.getLocalAddress();
    }

    @Override
    protected void implCloseSelectableChannel() throws IOException {
        platform.close();
    }

    @Override
    protected void implConfigureBlocking(boolean block) throws IOException {
        if (block) {
            platformKeys.cancelAll();  // only cancelled keys of ours are left (the caller checked)
        }
        platform.configureBlocking(block);
    }

    /** As the JDK's channel describes itself ({@code sun.nio.ch.ServerSocketChannelImpl[/127.0.0.1:1234]}). */
    @Override
    public String toString() {
        return platform.toString();
    }
}
