package io.extsock.core.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** A connection switched to IWARP_MODE: what MPA negotiation agreed on, and how long it took. */
@Name("io.extsock.IwarpConnected")
@Label("iWARP Connected")
@Description("A connection switched to IWARP_MODE: MPA negotiation (RFC 5044, RFC 6581) agreed")
@Category({"extsock"})
@StackTrace(false)
public final class IwarpConnectedEvent extends jdk.jfr.Event {

    @Label("Peer")
    @Description("The peer's address")
    public String peer;

    @Label("Local")
    @Description("The local address")
    public String local;

    @Label("Role")
    @Description("This side's MPA role: initiator (it connected) or responder")
    public String role;

    @Label("MPA Revision")
    @Description("The negotiated MPA revision: 1 (RFC 5044) or 2 (RFC 6581 enhanced setup)")
    public int mpaRevision;

    @Label("CRC")
    @Description("CRC32c on every FPDU")
    public boolean crc;

    @Label("Markers Sent")
    @Description("This side inserts MPA markers")
    public boolean markersSent;

    @Label("Markers Received")
    @Description("The peer inserts MPA markers")
    public boolean markersReceived;

    @Label("IRD")
    @Description("Inbound RDMA Reads this side serves at once")
    public int ird;

    @Label("ORD")
    @Description("Outbound RDMA Reads this side may have outstanding")
    public int ord;

    @Label("RTR")
    @Description("The ready-to-receive message of the peer-to-peer model (RFC 6581): ZERO_LENGTH_WRITE,"
            + " ZERO_LENGTH_READ, ZERO_LENGTH_SEND, or NONE")
    public String rtr;

    @Label("Max FPDU Size")
    @Description("The largest FPDU this side sends, in octets")
    public int maxFpduSize;

    @Label("Negotiation Duration")
    @Description("From the start of MPA negotiation to its agreement")
    @Timespan(Timespan.NANOSECONDS)
    public long negotiationDuration;
}
