package io.extsock.spi;

import io.extsock.IwarpNegotiationException;
import java.io.IOException;
import java.util.Objects;

/**
 * A provider's answer to a switch that asked for {@link io.extsock.IwarpOptions#FALLBACK} when
 * the peer turned out not to be an iWARP peer: not a failure of the connection, a signal that it
 * goes on as plain TCP. It carries why (the negotiation failure the switch would have thrown
 * without fallback) and the octets the provider read from the peer, which belong to the plain
 * stream.
 *
 * <p>What the provider leaves of the channel is in {@link IwarpProvider#attach}: as responder,
 * open and as it was handed over; as initiator, closed.
 */
public final class NotAnIwarpPeerException extends IOException {

    private static final long serialVersionUID = 1L;

    /** The octets read from the peer before it showed it was not an iWARP peer. */
    private final byte[] receivedOctets;

    /**
     * Creates the signal; providers throw it.
     *
     * @param why            the failure that showed the peer is not an iWARP peer ({@code
     *                       NOT_AN_IWARP_PEER}, {@code TIMEOUT} or {@code CONNECTION_CLOSED})
     * @param receivedOctets every octet read from the peer, in order; copied
     */
    public NotAnIwarpPeerException(IwarpNegotiationException why, byte[] receivedOctets) {
        super("the peer is not an iWARP peer; the connection goes on as plain TCP: " + why.getMessage(),
                Objects.requireNonNull(why));
        this.receivedOctets = receivedOctets.clone();
    }

    /**
     * Why the peer was taken for a plain TCP peer.
     *
     * @return the negotiation failure that a switch without fallback would have thrown
     */
    public IwarpNegotiationException negotiationFailure() {
        return (IwarpNegotiationException) getCause();
    }

    /**
     * What the peer sent during the negotiation: the first octets of its plain stream.
     *
     * @return a copy; empty if it sent nothing
     */
    public byte[] receivedOctets() {
        return receivedOctets.clone();
    }
}
