package io.extsock.core.engine;

import io.extsock.core.events.ConnectionStatisticsEvent;
import io.extsock.core.events.IwarpConnectedEvent;
import io.extsock.core.events.NegotiationFailedEvent;
import io.extsock.core.events.StreamWindowGrownEvent;
import io.extsock.core.events.StreamWindowRefusedEvent;
import io.extsock.core.events.TerminateReceivedEvent;
import io.extsock.core.events.TerminateSentEvent;
import io.extsock.core.verbs.ConnectionCounters;
import io.extsock.verbs.MessageType;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import jdk.jfr.Event;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;

/**
 * The periodic {@link ConnectionStatisticsEvent}, kept by the engine (which opens and closes
 * connections) so that the events package knows nothing of the verbs: the live connections, and the hook JFR calls
 * at each period to commit one event per connection. A connection that closes commits its
 * last counts at once (state CLOSED), so that a short connection between two periods is
 * recorded too.
 */
final class StatisticsEvents {

    private static final Set<ConnectionCounters> LIVE = ConcurrentHashMap.newKeySet();

    static {
        if (FlightRecorder.isInitialized()) {
            listenForJfr();  // JFR runs: the hook at once
        } else {
            // Listening loads JFR's own classes, milliseconds the first switch of a JVM that never
            // records should not wait for. A JFR started meanwhile is no loss: the listener hears
            // at once of a recorder that already runs.
            Thread listening = new Thread(StatisticsEvents::listenForJfr, "extsock-jfr-listener");
            listening.setDaemon(true);
            listening.start();
        }
    }

    /**
     * The hook is added when JFR starts (at once if it runs already): adding it registers the
     * event, which sets up JFR's metadata, a cost a JVM that never records should not pay.
     */
    private static void listenForJfr() {
        try {
            FlightRecorder.addListener(new FlightRecorderListener() {
                @Override
                public void recorderInitialized(FlightRecorder recorder) {
                    addHook();
                }
            });
        } catch (RuntimeException | LinkageError e) {
            unavailable(e);
        }
    }

    private static void addHook() {
        try {
            // Every extsock event class is loaded here, once, on the thread that starts JFR, and
            // not by the first connection with something to record: a virtual thread that loads
            // a class another thread is loading pins its carrier (jdk.VirtualThreadPinned).
            for (Class<? extends Event> type : List.of(IwarpConnectedEvent.class, NegotiationFailedEvent.class,
                    TerminateSentEvent.class, TerminateReceivedEvent.class, StreamWindowGrownEvent.class,
                    StreamWindowRefusedEvent.class)) {
                FlightRecorder.register(type);
            }
            FlightRecorder.addPeriodicEvent(ConnectionStatisticsEvent.class, StatisticsEvents::commitAll);
        } catch (RuntimeException | LinkageError e) {
            unavailable(e);
        }
    }

    /** A JVM without JFR: the counters still serve IwarpConnection.statistics(). */
    private static void unavailable(Throwable e) {
        System.getLogger(StatisticsEvents.class.getName()).log(System.Logger.Level.DEBUG,
                "JFR unavailable, no periodic iWARP statistics events: " + e);
    }

    private StatisticsEvents() {
    }

    /** A connection switched to IWARP_MODE: its counts go to JFR from now on. */
    static void opened(ConnectionCounters counters) {
        LIVE.add(counters);
    }

    /** A connection ended: its last counts are committed, and it leaves the periodic set. */
    static void closed(ConnectionCounters counters) {
        if (LIVE.remove(counters)) {
            commit(counters, "CLOSED");
        }
    }

    private static void commitAll() {
        for (ConnectionCounters counters : LIVE) {
            commit(counters, "CONNECTED");
        }
    }

    private static void commit(ConnectionCounters counters, String state) {
        if (!FlightRecorder.isInitialized()) {
            return;  // no recording can be running (see ExtsockEvents)
        }
        ConnectionStatisticsEvent event = new ConnectionStatisticsEvent();
        if (!event.shouldCommit()) {
            return;
        }
        event.peer = counters.peer();
        event.local = counters.local();
        event.state = state;
        event.bytesSent = counters.bytesSent();
        event.bytesReceived = counters.bytesReceived();
        event.sendsSent = counters.messagesSent(MessageType.SEND);
        event.sendsReceived = counters.messagesReceived(MessageType.SEND);
        event.writesSent = counters.messagesSent(MessageType.RDMA_WRITE);
        event.writesReceived = counters.messagesReceived(MessageType.RDMA_WRITE);
        event.readRequestsSent = counters.messagesSent(MessageType.RDMA_READ_REQUEST);
        event.readRequestsReceived = counters.messagesReceived(MessageType.RDMA_READ_REQUEST);
        event.readResponsesSent = counters.messagesSent(MessageType.RDMA_READ_RESPONSE);
        event.readResponsesReceived = counters.messagesReceived(MessageType.RDMA_READ_RESPONSE);
        event.terminatesSent = counters.messagesSent(MessageType.TERMINATE);
        event.terminatesReceived = counters.messagesReceived(MessageType.TERMINATE);
        event.sendsPayloadSent = counters.payloadSent(MessageType.SEND);
        event.sendsPayloadReceived = counters.payloadReceived(MessageType.SEND);
        event.writesPayloadSent = counters.payloadSent(MessageType.RDMA_WRITE);
        event.writesPayloadReceived = counters.payloadReceived(MessageType.RDMA_WRITE);
        event.readResponsesPayloadSent = counters.payloadSent(MessageType.RDMA_READ_RESPONSE);
        event.readResponsesPayloadReceived = counters.payloadReceived(MessageType.RDMA_READ_RESPONSE);
        event.errors = counters.errors();
        event.streamWindow = counters.streamWindow();
        event.commit();
    }
}
