package io.extsock.internal;

import java.net.InetSocketAddress;
import java.net.SocketOption;
import java.util.Map;

/**
 * Decides for a connection that a program unaware of extsock makes or accepts whether it
 * switches to IWARP_MODE, and hears how that turned out. The extsock agent (module
 * extsock-agent) converts the sockets of unmodified programs through it: it installs socket
 * factories whose {@link ChannelSocketImpl}s each carry one policy.
 *
 * <p>One instance serves one {@link ChannelSocketImpl}, so it may remember its decision until
 * the outcome. The implementation asks {@link #optionsFor} once, when its connection is
 * established (connected, or accepted by a server socket) and before any byte was read or
 * written, and reports {@link #outcome} once afterwards. Neither may block; an exception they
 * throw reaches the program's connect or accept.
 */
public interface ConnectionPolicy {

    /** How a connection that a policy decided on turned out. */
    enum Outcome {
        /** The policy asked for no switch: the connection is plain TCP. */
        PLAIN_TCP,
        /** The switch to IWARP_MODE completed: the connection runs iWARP. */
        IWARP,
        /**
         * The switch was asked for with {@link io.extsock.IwarpOptions#FALLBACK}, the peer was
         * not an iWARP peer, and the connection carries on as plain TCP.
         */
        FELL_BACK,
        /** The switch was asked for and failed (or never happened): the socket is closed. */
        FAILED
    }

    /**
     * The iWARP options for a connection just established: empty for plain TCP, {@code
     * IwarpOptions.IWARP_MODE} true (with any other iWARP option) to switch. The side that
     * connected switches at once, inside its connect; an accepted connection on its first use.
     *
     * @param local     the connection's local address (for an accepted one, the address the
     *                  peer reached)
     * @param remote    the peer's address
     * @param initiator true for a connection this side made, false for an accepted one
     * @return the options to set; never null
     */
    Map<SocketOption<?>, Object> optionsFor(InetSocketAddress local, InetSocketAddress remote, boolean initiator);

    /**
     * How the connection turned out; called once, after {@link #optionsFor}.
     *
     * @param outcome what became of the connection
     * @param detail  why, in words: for {@code FAILED} the error; for {@code FELL_BACK} the
     *                negotiation failure's message and, for a connection this side made, {@code
     *                "; reconnected from ADDRESS:PORT"}: the plain connection that carries the
     *                stream now, not the one {@link #optionsFor} was asked about
     */
    void outcome(Outcome outcome, String detail);
}
