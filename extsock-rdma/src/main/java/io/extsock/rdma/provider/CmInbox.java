package io.extsock.rdma.provider;

import io.extsock.rdma.events.CmEvent;
import io.extsock.rdma.ffi.Libc;
import io.extsock.rdma.ffi.RdmaConstants;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.foreign.MemorySegment;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The rdma_cm events of one identifier: a thread setting the connection up waits here for the
 * event it needs (on a blocking queue, never in librdmacm); once the connection is up, its end
 * (DISCONNECTED, DEVICE_REMOVAL) goes to the connection as it happens.
 */
final class CmInbox {

    /** Not an rdma_cm event: wakes a waiter of an inbox that closed. */
    private static final CmEvent CLOSED = new CmEvent(-1, 0, MemorySegment.NULL,
            MemorySegment.NULL, new byte[0], 0, 0);

    private final LinkedBlockingQueue<CmEvent> events = new LinkedBlockingQueue<>();
    private volatile Consumer<CmEvent> onEnd;

    /** Called on the device's event thread. */
    void deliver(CmEvent event) {
        Consumer<CmEvent> ending = onEnd;
        if (ending != null && (event.type() == RdmaConstants.RDMA_CM_EVENT_DISCONNECTED
                || event.type() == RdmaConstants.RDMA_CM_EVENT_DEVICE_REMOVAL)) {
            ending.accept(event);
            return;
        }
        events.add(event);
    }

    /**
     * Wakes a thread waiting here with "Socket closed", and returns the events nobody took.
     *
     * @return the events still waiting, in order
     */
    List<CmEvent> close() {
        List<CmEvent> left = new ArrayList<>();
        events.drainTo(left);
        events.add(CLOSED);
        return left;
    }

    /** From now on the connection hears of its end as it happens. */
    void onEnd(Consumer<CmEvent> ending) {
        onEnd = ending;
        List<CmEvent> waiting = new ArrayList<>();
        events.drainTo(waiting);
        waiting.forEach(this::deliver);
    }

    /**
     * Waits for {@code expected}; an error event on the way fails the wait, naming it.
     *
     * @param deadline {@link System#nanoTime()} by which it must come; Long.MAX_VALUE for no limit
     * @param what     what is under way, for the messages: "connecting to 10.0.0.2:7000"
     */
    CmEvent await(int expected, long deadline, String what) throws IOException {
        while (true) {
            CmEvent event;
            try {
                event = deadline == Long.MAX_VALUE ? events.take()
                        : events.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException(what + ": interrupted");
            }
            if (event == null) {
                throw new SocketTimeoutException(what + ": timed out");
            }
            if (event == CLOSED) {
                events.add(CLOSED);  // for the next waiter too
                throw new SocketException("Socket closed");
            }
            if (event.type() == expected) {
                return event;
            }
            failIfError(event, what);
        }
    }

    private static void failIfError(CmEvent event, String what) throws IOException {
        switch (event.type()) {
            case RdmaConstants.RDMA_CM_EVENT_REJECTED ->
                    throw new ConnectException(what + ": the peer rejected the connection"
                            + (event.status() < 0 ? " or it ended: " + Libc.strerror(-event.status()) : "")
                            + " (status " + event.status() + ")");
            case RdmaConstants.RDMA_CM_EVENT_UNREACHABLE, RdmaConstants.RDMA_CM_EVENT_CONNECT_ERROR ->
                    throw new ConnectException(what + ": " + (event.status() == -111 || event.status() == 111
                            ? "Connection refused" : "the peer is unreachable (status " + event.status() + ")"));
            case RdmaConstants.RDMA_CM_EVENT_ADDR_ERROR ->
                    throw new ConnectException(what + ": no RDMA device routes to the address (status "
                            + event.status() + ")");
            case RdmaConstants.RDMA_CM_EVENT_ROUTE_ERROR ->
                    throw new ConnectException(what + ": no route (status " + event.status() + ")");
            case RdmaConstants.RDMA_CM_EVENT_DISCONNECTED, RdmaConstants.RDMA_CM_EVENT_DEVICE_REMOVAL ->
                    throw new SocketException(what + ": the connection ended before it was set up");
            default -> {
                // another event (TIMEWAIT_EXIT, a late one) says nothing about this wait
            }
        }
    }
}
