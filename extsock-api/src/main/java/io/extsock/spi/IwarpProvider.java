package io.extsock.spi;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketOption;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Map;
import java.util.Optional;

/**
 * An iWARP implementation, found with {@link java.util.ServiceLoader}; the api module holds no
 * engine of its own. There are two kinds:
 *
 * <ul>
 *   <li>A software engine (extsock-core's) takes over a connected TCP channel: {@link #attach}
 *       and {@link #acceptAhead}.
 *   <li>A device provider (extsock-rdma's, over rdma-core) runs connections on an RDMA device,
 *       which makes its own connections: the adapter owns the TCP connection, so it cannot take
 *       over a channel the JDK connected. It answers {@link #makesOwnConnections()} true and
 *       implements {@link #deviceFor}, {@link #connect} and {@link #listen}; its {@code attach}
 *       throws {@link UnsupportedOperationException}.
 * </ul>
 *
 * <p>{@link io.extsock.IwarpOptions#PROVIDER} picks between them per connection.
 *
 * <p>This interface is young: it grows with the engine and is not yet a stable contract.
 */
public interface IwarpProvider {

    /**
     * A short human-readable name, for diagnostics.
     *
     * @return the provider's name
     */
    String name();

    /**
     * Switches a connected channel to iWARP: runs MPA negotiation on the calling thread and
     * returns the session whose stream now carries the socket's bytes. On failure the provider
     * closes the channel and throws an exception naming the cause (an {@link
     * io.extsock.IwarpNegotiationException} when negotiation failed); it never leaves a
     * half-switched connection behind.
     *
     * <p>With {@link io.extsock.IwarpOptions#FALLBACK} true in {@code options}, a peer that is
     * not an iWARP peer (as that option defines it, within {@link
     * io.extsock.IwarpOptions#FALLBACK_WAIT}) ends the switch with a {@link
     * NotAnIwarpPeerException} instead, carrying every octet read from the peer. As responder
     * the provider then leaves the channel open, in the blocking mode it came in, with the
     * options it changed (TCP_NODELAY, the adaptor's SO_TIMEOUT) as they were, so that the
     * caller serves it as plain TCP; as initiator, whose MPA Request the peer has read, it closes the channel. extsock's
     * sockets pass FALLBACK only for a switch of a connection that carried no stream before
     * (with the "extsock.noEarlierStream" marker).
     *
     * @param channel   the connected channel, in blocking mode (or, for a channel a selector
     *                  watches, non-blocking); the provider owns it from now on
     * @param initiator true on the side that connected (MPA initiator), false on the side
     *                  that accepted (MPA responder)
     * @param options   the iWARP options set on the socket, by option; extsock's own sockets
     *                  add a marker ("extsock.noEarlierStream", true) when the connection
     *                  carried no plain stream before the switch, so that a provider may take
     *                  any octet ahead of the peer's MPA frame for a protocol error
     * @return the switched connection: its stream and its extended side
     * @throws NotAnIwarpPeerException with FALLBACK, if the peer is not an iWARP peer; the
     *         channel is then open as responder, closed as initiator
     * @throws IOException if the switch fails: {@link io.extsock.IwarpNegotiationException} if
     *         negotiation did not agree, another exception for an I/O error; the channel is
     *         closed either way
     */
    IwarpSession attach(SocketChannel channel, boolean initiator,
                        Map<SocketOption<?>, Object> options) throws IOException;

    /**
     * Negotiates every connection of a listening channel as it arrives, as the MPA responder,
     * ahead of the application's {@code accept} (as the kernel completes TCP's handshake before
     * {@code accept}): the application takes connections already switched, or (with FALLBACK)
     * going on as plain TCP. A connection whose negotiation fails is closed and never taken.
     *
     * @param listener the bound listening channel; the acceptor owns it from now on
     * @param options  the iWARP options every connection negotiates with, by option
     * @param backlog  how many negotiated connections may wait to be taken; past that, the
     *                 provider stops accepting, and the kernel's backlog holds the rest
     * @return the acceptor, already accepting
     * @throws UnsupportedOperationException if this provider cannot negotiate ahead of accept
     * @throws IOException if the acceptor cannot start; the listener is then closed
     */
    default IwarpAcceptor acceptAhead(ServerSocketChannel listener, Map<SocketOption<?>, Object> options, int backlog)
            throws IOException {
        throw new UnsupportedOperationException(name() + " cannot negotiate connections ahead of accept");
    }

    /**
     * Whether this provider runs connections on an RDMA device and makes them itself ({@link
     * #connect}, {@link #listen}) rather than taking over a channel ({@link #attach}).
     *
     * @return true for a device provider; false (the default) for a software engine
     */
    default boolean makesOwnConnections() {
        return false;
    }

    /**
     * The RDMA device a connection with {@code address} would run on: for a peer's address, the
     * device of this host's route to it; for a local address, the device whose interface has it.
     * A software engine runs on none.
     *
     * @param address a peer's address, or the local address a listener binds
     * @return the device's name; empty when the address is on no RDMA device
     * @throws IOException naming why the provider cannot run connections at all on this host (no
     *         library, no device, no permission), with the fix
     */
    default Optional<String> deviceFor(InetAddress address) throws IOException {
        return Optional.empty();
    }

    /**
     * Connects to {@code remote} on the device of the route to it (the MPA initiator) and
     * negotiates with {@code options}.
     *
     * @param remote        the peer's address, resolved
     * @param timeoutMillis how long resolving and connecting may take; 0 for the options'
     *                      MPA_TIMEOUT alone
     * @param options       the iWARP options set on the socket, by option
     * @return the connection, in IWARP_MODE
     * @throws UnsupportedOperationException if this provider does not make its own connections
     * @throws java.net.ConnectException if the peer refused or rejected the connection
     * @throws java.net.SocketTimeoutException if it did not connect in time
     * @throws IOException another failure, naming it; nothing is left open
     */
    default DeviceSession connect(InetSocketAddress remote, int timeoutMillis, Map<SocketOption<?>, Object> options)
            throws IOException {
        throw new UnsupportedOperationException(name() + " does not make its own connections: it takes over a"
                + " connected channel (attach)");
    }

    /**
     * Listens on {@code local} on its device (the MPA responder) and accepts every connection
     * with {@code options}, ahead of the application's {@code accept}.
     *
     * @param local   the address and port to listen on; a wildcard address listens on every device
     * @param backlog how many connections may wait to be taken
     * @param options the iWARP options every connection negotiates with, by option
     * @return the listener, already listening
     * @throws UnsupportedOperationException if this provider does not make its own connections
     * @throws IOException if it cannot listen (the port in use, no device), naming why
     */
    default DeviceAcceptor listen(InetSocketAddress local, int backlog, Map<SocketOption<?>, Object> options)
            throws IOException {
        throw new UnsupportedOperationException(name() + " does not make its own connections: it negotiates on"
                + " channels the JDK accepted (acceptAhead)");
    }
}
