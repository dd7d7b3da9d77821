package io.extsock.core.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** The peer sent a Terminate (RFC 5040 section 5.4): it found an error, and the connection ends. */
@Name("io.extsock.TerminateReceived")
@Label("iWARP Terminate Received")
@Description("The peer sent a Terminate (RFC 5040 section 5.4): it found an error, and the connection ends")
public final class TerminateReceivedEvent extends TerminateEvent {
}
