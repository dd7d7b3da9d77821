package io.extsock.core.events;

import io.extsock.core.mpa.MpaAgreement;
import io.extsock.core.rdmap.TerminateHeader;
import io.extsock.core.terminate.ErrorLayer;
import io.extsock.core.terminate.TerminateCause;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import jdk.jfr.FlightRecorder;

/**
 * Commits extsock's JFR events. Each method first asks whether JFR was started at all (until
 * then no event class is even loaded: loading the first one sets up JFR's metadata, hundreds of
 * classes), then whether the event would be recorded, and returns at once if not: with JFR off,
 * an event costs a check, never a field computed for nothing. None is on a
 * per-message path; the per-message numbers go to the queue pair's {@code ConnectionCounters}
 * and reach JFR by the engine's {@code StatisticsEvents}.
 */
public final class ExtsockEvents {

    private ExtsockEvents() {
    }

    /** A connection switched to IWARP_MODE. */
    public static void connected(String peer, String local, MpaAgreement agreement, int maxFpduSize,
                                 long negotiationNanos) {
        if (!FlightRecorder.isInitialized()) {
            return;  // no recording can be running: not even the event class is loaded
        }
        IwarpConnectedEvent event = new IwarpConnectedEvent();
        if (!event.shouldCommit()) {
            return;
        }
        event.peer = peer;
        event.local = local;
        event.role = role(agreement.role() == io.extsock.core.mpa.MpaRole.INITIATOR);
        event.mpaRevision = agreement.revision();
        event.crc = agreement.crc();
        event.markersSent = agreement.sendMarkers();
        event.markersReceived = agreement.receiveMarkers();
        event.ird = agreement.ird();
        event.ord = agreement.ord();
        event.rtr = agreement.rtr().map(Enum::name).orElse("NONE");
        event.maxFpduSize = maxFpduSize;
        event.negotiationDuration = negotiationNanos;
        event.commit();
    }

    /** A switch to IWARP_MODE failed. */
    public static void negotiationFailed(String peer, String local, boolean initiator, String reason, String message,
                                         long negotiationNanos) {
        if (!FlightRecorder.isInitialized()) {
            return;  // no recording can be running: not even the event class is loaded
        }
        NegotiationFailedEvent event = new NegotiationFailedEvent();
        if (!event.shouldCommit()) {
            return;
        }
        event.peer = peer;
        event.local = local;
        event.role = role(initiator);
        event.reason = reason;
        event.message = message;
        event.negotiationDuration = negotiationNanos;
        event.commit();
    }

    /** A switch with IwarpOptions.FALLBACK found a plain TCP peer: the connection goes on as plain TCP. */
    public static void fellBack(String peer, String local, boolean initiator, String reason, String message,
                                int octetsReceived, long negotiationNanos) {
        if (!FlightRecorder.isInitialized()) {
            return;  // no recording can be running: not even the event class is loaded
        }
        IwarpFallbackEvent event = new IwarpFallbackEvent();
        if (!event.shouldCommit()) {
            return;
        }
        event.peer = peer;
        event.local = local;
        event.role = role(initiator);
        event.reason = reason;
        event.message = message;
        event.octetsReceived = octetsReceived;
        event.negotiationDuration = negotiationNanos;
        event.commit();
    }

    /** This side sent a Terminate. */
    public static void terminateSent(String peer, TerminateHeader terminate, String detail) {
        if (FlightRecorder.isInitialized()) {  // else no recording can be running: not even the event class is loaded
            new TerminateSentEvent().commit(peer, terminate, detail);
        }
    }

    /** The peer sent a Terminate. */
    public static void terminateReceived(String peer, TerminateHeader terminate, String detail) {
        if (FlightRecorder.isInitialized()) {
            new TerminateReceivedEvent().commit(peer, terminate, detail);
        }
    }

    /** The socket stream's receive window grew. */
    public static void streamWindowGrown(String peer, int oldSize, int newSize) {
        if (!FlightRecorder.isInitialized()) {
            return;  // no recording can be running: not even the event class is loaded
        }
        StreamWindowGrownEvent event = new StreamWindowGrownEvent();
        if (!event.shouldCommit()) {
            return;
        }
        event.peer = peer;
        event.oldSize = oldSize;
        event.newSize = newSize;
        event.commit();
    }

    /** The memory budget refused (part of) a growth of the socket stream's receive window. */
    public static void streamWindowRefused(String peer, int size, int wantedSize, int grantedSize) {
        if (!FlightRecorder.isInitialized()) {
            return;  // no recording can be running: not even the event class is loaded
        }
        StreamWindowRefusedEvent event = new StreamWindowRefusedEvent();
        if (!event.shouldCommit()) {
            return;
        }
        event.peer = peer;
        event.size = size;
        event.wantedSize = wantedSize;
        event.grantedSize = grantedSize;
        event.commit();
    }

    /**
     * An address as events and logs show it: {@code 127.0.0.1:7000}, {@code [::1]:7000}; the
     * host name only where there is no address; "unknown" for null.
     */
    public static String address(SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            InetAddress ip = inet.getAddress();
            String host = ip == null ? inet.getHostString()
                    : ip instanceof Inet6Address ? "[" + ip.getHostAddress() + "]" : ip.getHostAddress();
            return host + ":" + inet.getPort();
        }
        return address == null ? "unknown" : address.toString();
    }

    static String role(boolean initiator) {
        return initiator ? "initiator" : "responder";
    }

    /** RDMAP, DDP or LLP; the number for a layer no RFC defines. */
    public static String layerName(int layer) {
        ErrorLayer known = ErrorLayer.fromWire(layer);
        return known != null ? known.name() : Integer.toString(layer);
    }

    /** The registry's name of a Terminate's error, or "unknown". */
    public static String errorName(TerminateHeader terminate) {
        TerminateCause cause = terminate.cause();
        return cause != null ? cause.description() : "unknown";
    }
}
