package io.extsock.core.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** This side sent a Terminate (RFC 5040 section 5.4): the peer broke a rule, and the connection ends. */
@Name("io.extsock.TerminateSent")
@Label("iWARP Terminate Sent")
@Description("This side sent a Terminate (RFC 5040 section 5.4): the peer broke a rule, and the connection ends")
public final class TerminateSentEvent extends TerminateEvent {
}
