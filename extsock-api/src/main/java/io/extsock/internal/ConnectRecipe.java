package io.extsock.internal;

import io.extsock.IwarpNegotiationException;
import io.extsock.internal.nio.PlatformProvider;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.nio.channels.SocketChannel;

/**
 * How a socket connected, kept so that a fallback's reconnect connects again the same way: to
 * the same peer, from the local address the application bound (on a new ephemeral port: the old
 * one may linger in TIME_WAIT), with the options it set and the timeout its connect had.
 */
final class ConnectRecipe {

    /** The local address the application bound to, null if none. */
    private volatile InetAddress boundAddress;
    /** The peer as the connect resolved it. */
    private volatile InetSocketAddress remote;
    /** The connect's timeout in milliseconds, 0 for none. */
    private volatile int connectMillis;

    void bound(InetAddress local) {
        boundAddress = local;
    }

    /**
     * Where Socket's connect to {@code endpoint} goes, remembered with the connect's timeout:
     * an unresolved name fails as Socket's does, and the wildcard address means this host.
     *
     * @throws UnknownHostException for an unresolved name
     * @throws IOException for an address that is not an InetSocketAddress
     */
    InetSocketAddress connecting(SocketAddress endpoint, int millis) throws IOException {
        if (!(endpoint instanceof InetSocketAddress)) {
            throw new IOException("Unsupported address type");
        }
        InetSocketAddress isa = (InetSocketAddress) endpoint;
        if (isa.isUnresolved()) {
            throw new UnknownHostException(isa.getHostName());
        }
        InetAddress target = isa.getAddress();
        if (target.isAnyLocalAddress()) {
            target = InetAddress.getLocalHost();
        }
        InetSocketAddress resolved = new InetSocketAddress(target, isa.getPort());
        remote = resolved;
        connectMillis = millis;
        return resolved;
    }

    /**
     * A blocking connect, as Socket's: an interrupt status already set does not stop it (see
     * {@link InterruptShield}). Without a timeout, the channel's own connect: one system call,
     * where the adaptor's makes the socket non-blocking, connects, polls and makes it blocking
     * again (six). With one, the adaptor, which times it without a Selector.
     */
    static void connectBlocking(SocketChannel channel, InetSocketAddress remote, int millis) throws IOException {
        boolean interrupted = InterruptShield.enter();
        try {
            if (millis > 0) {
                channel.socket().connect(remote, millis);
            } else {
                channel.connect(remote);
            }
        } finally {
            InterruptShield.exit(interrupted);
        }
    }

    /**
     * A new channel, set up and connected to the peer as the first one was.
     *
     * @param why the negotiation failure that sent the socket back to plain TCP: a connect error
     *     carries it, suppressed
     * @throws IOException the connect's error as Socket's connect raises it; the new channel is
     *     then closed
     */
    SocketChannel connectAgain(ChannelSocketOptions options, IwarpNegotiationException why) throws IOException {
        SocketChannel fresh = null;
        try {
            fresh = PlatformProvider.get().openSocketChannel();
            options.applyTo(fresh);
            InetAddress local = boundAddress;
            if (local != null) {
                fresh.bind(new InetSocketAddress(local, 0));
            }
            connectBlocking(fresh, remote, connectMillis);
            return fresh;
        } catch (IOException | RuntimeException e) {
            if (fresh != null) {
                fresh.close();
            }
            if (e instanceof IOException) {
                IOException failure = SocketErrors.asConnectError((IOException) e);
                failure.addSuppressed(why);
                throw failure;
            }
            throw e;
        }
    }
}
