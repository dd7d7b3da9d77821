package io.extsock.core.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** A switch to IWARP_MODE with IwarpOptions.FALLBACK found a plain TCP peer: the connection goes on as plain TCP. */
@Name("io.extsock.IwarpFallback")
@Label("iWARP Fallback to TCP")
@Description("A switch to IWARP_MODE with FALLBACK found that the peer is not an iWARP peer; the connection goes"
        + " on as plain TCP (the initiator connects again)")
@Category({"extsock"})
@StackTrace(false)
public final class IwarpFallbackEvent extends jdk.jfr.Event {

    @Label("Peer")
    @Description("The peer's address")
    public String peer;

    @Label("Local")
    @Description("The local address of the connection that negotiated")
    public String local;

    @Label("Role")
    @Description("This side's MPA role: initiator (it connected, and connects again) or responder")
    public String role;

    @Label("Reason")
    @Description("What showed the peer is not an iWARP peer, as IwarpNegotiationException.Reason:"
            + " NOT_AN_IWARP_PEER, TIMEOUT (silent for FALLBACK_WAIT) or CONNECTION_CLOSED")
    public String reason;

    @Label("Message")
    @Description("What the peer did, in words")
    public String message;

    @Label("Octets Received")
    @Description("What the peer sent during the negotiation (a responder hands it to the application first)")
    @DataAmount(DataAmount.BYTES)
    public int octetsReceived;

    @Label("Negotiation Duration")
    @Description("From the start of MPA negotiation to the fallback")
    @Timespan(Timespan.NANOSECONDS)
    public long negotiationDuration;
}
