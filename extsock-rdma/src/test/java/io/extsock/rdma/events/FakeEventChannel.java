package io.extsock.rdma.events;

import io.extsock.rdma.ffi.Libc;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * An event channel as rdma_cm's and a completion channel behave, without a device: events
 * queued by the test make an eventfd readable; {@link #take()} acknowledges what it takes; and
 * {@link #destroy()} waits, as rdma_destroy_id and ibv_destroy_cq do, until every event taken
 * was acknowledged.
 */
final class FakeEventChannel implements EventSource<String>, AutoCloseable {

    private final String name;
    private final int fd;
    private final Deque<String> waiting = new ArrayDeque<>();
    private int taken;
    private int acknowledged;
    private IOException failure;
    private boolean destroyed;

    FakeEventChannel(String name) throws IOException {
        this.name = name;
        this.fd = Libc.eventfd();
    }

    synchronized void post(String event) throws IOException {
        waiting.add(event);
        Libc.signal(fd);
    }

    /** The next take fails with this. */
    synchronized void failNextTake(IOException failure) throws IOException {
        this.failure = failure;
        Libc.signal(fd);
    }

    @Override
    public int fd() {
        return fd;
    }

    @Override
    public synchronized String take() throws IOException {
        if (destroyed) {
            throw new AssertionError(name + " was used after it was destroyed");
        }
        if (failure != null) {
            IOException thrown = failure;
            failure = null;
            throw thrown;
        }
        String event = waiting.poll();
        if (event == null) {
            Libc.drain(fd);
            return null;
        }
        taken++;
        acknowledged++;
        notifyAll();
        return event;
    }

    synchronized int taken() {
        return taken;
    }

    /** Waits until every event taken was acknowledged, then frees the channel. */
    synchronized void destroy() throws InterruptedException {
        while (acknowledged < taken) {
            wait();
        }
        destroyed = true;
    }

    @Override
    public void close() throws IOException {
        Libc.close(fd);
    }

    @Override
    public String toString() {
        return name;
    }
}
