package io.extsock.internal;

import java.io.Closeable;
import java.io.IOException;

/**
 * Closes a socket that a failure left unusable. The failure is what its caller reports; an
 * error of the close itself rides along in it, suppressed, rather than replacing it.
 */
public final class CloseAfterFailure {

    private CloseAfterFailure() {
    }

    /** Closes {@code socket}; an error of the close is added to {@code failure} as suppressed. */
    public static void close(Closeable socket, Exception failure) {
        try {
            socket.close();
        } catch (IOException closeFailure) {
            failure.addSuppressed(closeFailure);
        }
    }
}
