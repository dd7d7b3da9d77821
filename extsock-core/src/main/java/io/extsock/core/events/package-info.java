/**
 * extsock's JDK Flight Recorder events, category "extsock": {@link
 * io.extsock.core.events.IwarpConnectedEvent io.extsock.IwarpConnected}, {@link
 * io.extsock.core.events.NegotiationFailedEvent io.extsock.NegotiationFailed}, {@link
 * io.extsock.core.events.IwarpFallbackEvent io.extsock.IwarpFallback}, {@link
 * io.extsock.core.events.TerminateSentEvent io.extsock.TerminateSent}, {@link
 * io.extsock.core.events.TerminateReceivedEvent io.extsock.TerminateReceived}, {@link
 * io.extsock.core.events.StreamWindowGrownEvent io.extsock.StreamWindowGrown}, {@link
 * io.extsock.core.events.StreamWindowRefusedEvent io.extsock.StreamWindowRefused} and the periodic
 * {@link io.extsock.core.events.ConnectionStatisticsEvent io.extsock.ConnectionStatistics}. With
 * JFR off they cost a check each; none is committed per message.
 */
package io.extsock.core.events;
