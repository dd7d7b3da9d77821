package io.extsock.spi;

import java.io.IOException;
import java.net.SocketOption;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Map;

/**
 * An iWARP implementation that can take over a connected TCP channel: the software engine of
 * extsock-core today, a kernel or adapter verbs binding tomorrow. Found with {@link
 * java.util.ServiceLoader}; the api module holds no engine of its own.
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
     * the provider then leaves the channel open, in blocking mode, with the options it changed
     * (TCP_NODELAY, the adaptor's SO_TIMEOUT) as they were, so that the caller serves it as plain
     * TCP; as initiator, whose MPA Request the peer has read, it closes the channel. extsock's
     * sockets pass FALLBACK only for a switch of a connection that carried no stream before
     * (with the "extsock.noEarlierStream" marker).
     *
     * @param channel   the connected channel, in blocking mode; the provider owns it from now on
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
}
