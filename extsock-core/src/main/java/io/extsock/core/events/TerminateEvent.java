package io.extsock.core.events;

import io.extsock.core.rdmap.TerminateHeader;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.StackTrace;

/**
 * The fields of a Terminate (RFC 5040 section 5.4), sent or received: JFR names an event type
 * by its class, so the two directions are two small subclasses of this one.
 */
@Category({"extsock"})
@StackTrace(false)
abstract class TerminateEvent extends jdk.jfr.Event {

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

    /**
     * Fills and commits this event if a recording wants it. Called on the subclass itself, so
     * that verifying the caller never loads an event class while JFR is off (JfrOffTest).
     */
    final void commit(String peer, TerminateHeader terminate, String detail) {
        if (!shouldCommit()) {
            return;
        }
        this.peer = peer;
        layer = ExtsockEvents.layerName(terminate.layer());
        errorType = terminate.errorType();
        errorCode = terminate.errorCode();
        error = ExtsockEvents.errorName(terminate);
        this.detail = detail;
        commit();
    }
}
