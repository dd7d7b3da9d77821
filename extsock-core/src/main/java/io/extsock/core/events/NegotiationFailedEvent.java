package io.extsock.core.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** A switch to IWARP_MODE failed: the socket was closed. */
@Name("io.extsock.NegotiationFailed")
@Label("iWARP Negotiation Failed")
@Description("A switch to IWARP_MODE failed: MPA negotiation did not agree, and the socket was closed")
@Category({"extsock"})
@StackTrace(false)
public final class NegotiationFailedEvent extends jdk.jfr.Event {

    @Label("Peer")
    @Description("The peer's address")
    public String peer;

    @Label("Local")
    @Description("The local address")
    public String local;

    @Label("Role")
    @Description("This side's MPA role: initiator (it connected) or responder")
    public String role;

    @Label("Reason")
    @Description("Why, as IwarpNegotiationException.Reason: NOT_AN_IWARP_PEER, TIMEOUT, CONNECTION_CLOSED,"
            + " REJECTED, INCOMPATIBLE, MALFORMED; or the exception's class for other failures")
    public String reason;

    @Label("Message")
    @Description("The failure in words")
    public String message;

    @Label("Negotiation Duration")
    @Description("From the start of MPA negotiation to its failure")
    @Timespan(Timespan.NANOSECONDS)
    public long negotiationDuration;
}
