package io.extsock;

import java.net.SocketException;

/**
 * The switch to IWARP_MODE failed: MPA negotiation (RFC 5044, RFC 6581) did not agree. The
 * socket is closed; it is never left half switched.
 */
public class IwarpNegotiationException extends SocketException {

    /** Why negotiation failed. */
    public enum Reason {
        /** The peer sent bytes that are not an MPA frame: it is not in IWARP_MODE. */
        NOT_AN_IWARP_PEER,
        /** The peer sent no MPA frame within the MPA timeout. */
        TIMEOUT,
        /** The peer closed the connection during negotiation. */
        CONNECTION_CLOSED,
        /** The peer rejected the connection (see {@link #peerPrivateData()}). */
        REJECTED,
        /** Both sides speak MPA, but their settings cannot agree (revision, markers, RTR, IRD). */
        INCOMPATIBLE,
        /** The peer's MPA frame broke a rule of RFC 5044 or RFC 6581. */
        MALFORMED
    }

    /** Why negotiation failed. */
    private final Reason reason;
    /** What the peer sent with a rejection; empty otherwise. */
    private final byte[] peerPrivateData;

    /**
     * Creates the exception; providers throw it.
     *
     * @param reason          why negotiation failed
     * @param message         the details, in words
     * @param peerPrivateData what the peer sent with a rejection, or null; copied
     */
    public IwarpNegotiationException(Reason reason, String message, byte[] peerPrivateData) {
        super("IWARP_MODE negotiation failed (" + reason + "): " + message);
        this.reason = reason;
        this.peerPrivateData = peerPrivateData == null ? new byte[0] : peerPrivateData.clone();
    }

    /**
     * Why negotiation failed.
     *
     * @return the reason
     */
    public Reason reason() {
        return reason;
    }

    /**
     * What the peer sent with a rejection, for the application.
     *
     * @return a copy of the peer's private data; empty if there was none
     */
    public byte[] peerPrivateData() {
        return peerPrivateData.clone();
    }
}
