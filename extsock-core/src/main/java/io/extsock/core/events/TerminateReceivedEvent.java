package io.extsock.core.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** The peer sent a Terminate (RFC 5040 section 5.4): it found an error, and the connection ends. */
@Name("io.extsock.TerminateReceived")
@Label("iWARP Terminate Received")
@Description("The peer sent a Terminate (RFC 5040 section 5.4): it found an error, and the connection ends")
@Category({"extsock"})
@StackTrace(false)
public final class TerminateReceivedEvent extends jdk.jfr.Event {

    @Label("Peer")
    @Description("The peer's address")
    public String peer;

    @Label("Layer")
    @Description("The layer of the error: RDMAP, DDP or LLP (MPA), or its number if none")
    public String layer;

    @Label("Error Type")
    @Description("EType, the error type within the layer (RFC 5040 section 4.8)")
    public int errorType;

    @Label("Error Code")
    @Description("ErrCode, the error code within the type")
    public int errorCode;

    @Label("Error")
    @Description("The error's name in the RFCs and the IANA registry, or 'unknown' for codes no RFC defines")
    public String error;

    @Label("Detail")
    @Description("What happened, in words")
    public String detail;
}
