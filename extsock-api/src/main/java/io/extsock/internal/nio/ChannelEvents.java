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
final class ChannelEvents {

    private final List<Registration> registrations = new CopyOnWriteArrayList<>();
    /** The session's readiness once the channel switched; null while it is plain TCP. */
    private volatile Readiness session;

    boolean fromEvents() {
        return session != null;
    }

    int descriptorInterest(int interest) {
        return session == null ? interest : 0;
    }

    int fromDescriptor(int ready) {
        return session == null ? ready : 0;
    }

    /** What the session has ready of {@code interest}; an ended connection is readable and writable (both end at once). */
    int readyOps(int interest) {
        Readiness current = session;
        if (current == null) {
            return 0;
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

    Readiness.Watch watch(Runnable changed) {
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
