package io.extsock.internal.nio;

import io.extsock.spi.Readiness;
import java.nio.channels.SelectionKey;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A switchable channel's readiness as its selectors see it ({@link EventReadiness}): its
 * descriptor's while it is plain TCP; once it runs in IWARP_MODE, its iWARP session's, whose
 * engine reads the socket (so the descriptor is watched for nothing), each selector following
 * the session's changes.
 */
final class ChannelEvents implements EventReadiness {

    private final List<Registration> registrations = new CopyOnWriteArrayList<>();
    /** The session's readiness once the channel switched; null while it is plain TCP. */
    private volatile Readiness session;
    /** After a responder's fallback: octets the engine read wait to be read first, which no descriptor shows. */
    private volatile boolean prefixPending;

    @Override
    public boolean fromEvents() {
        return session != null || prefixPending;
    }

    /** Octets read from a plain peer before its fallback wait (or no longer wait) to be read first. */
    void prefixPending(boolean pending) {
        prefixPending = pending;
        if (pending) {
            tellSelectors();
        }
    }

    /** A fallback's reconnect put a new channel underneath: each selector watches it from now on. */
    void platformReplaced() {
        tellSelectors();
    }

    private void tellSelectors() {
        for (Registration registration : registrations) {
            registration.changed.run();
        }
    }

    @Override
    public int descriptorInterest(int interest) {
        return session == null ? interest : 0;
    }

    @Override
    public int fromDescriptor(int ready) {
        return session == null ? ready : 0;
    }

    /** What the session has ready of {@code interest}; an ended connection is readable and writable (both fail at once). */
    @Override
    public int readyOps(int interest) {
        Readiness current = session;
        if (current == null) {
            return prefixPending ? interest & SelectionKey.OP_READ : 0;
        }
        int ops = current.readyOps();
        int ready = 0;
        if ((ops & (Readiness.READABLE | Readiness.CLOSED)) != 0) {
            ready |= SelectionKey.OP_READ;
        }
        if ((ops & (Readiness.WRITABLE | Readiness.CLOSED)) != 0) {
            ready |= SelectionKey.OP_WRITE;
        }
        return ready & interest;
    }

    @Override
    public Readiness.Watch watch(Runnable changed) {
        Registration registration = new Registration(changed);
        registrations.add(registration);
        Readiness current = session;
        if (current != null) {
            registration.follow(current);
        }
        return () -> {
            registrations.remove(registration);
            registration.stop();
        };
    }

    /** The channel switched: its readiness is the session's from now on, and each selector looks again. */
    synchronized void switched(Readiness readiness) {
        if (session != null) {
            return;  // told before
        }
        session = readiness;
        for (Registration registration : registrations) {
            registration.follow(readiness);
            registration.changed.run();
        }
    }

    /** One selector's watch of the channel, and of its session once there is one. */
    private static final class Registration {
        final Runnable changed;
        private Readiness.Watch sessionWatch;
        private boolean stopped;

        Registration(Runnable changed) {
            this.changed = changed;
        }

        synchronized void follow(Readiness readiness) {
            if (sessionWatch == null && !stopped) {
                sessionWatch = readiness.watch(changed);
            }
        }

        synchronized void stop() {
            stopped = true;
            if (sessionWatch != null) {
                sessionWatch.close();
            }
        }
    }
}
