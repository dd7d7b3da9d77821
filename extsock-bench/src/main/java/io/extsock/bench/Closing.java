package io.extsock.bench;

import java.io.Closeable;
import java.io.IOException;

/** Closing what a benchmark opened without losing a failure: many at once, or one on the way out of a failure. */
final class Closing {

    private Closing() {
    }

    /** Closes every one, even after one failed to; the first failure is thrown, the others added to it. */
    static void all(Iterable<? extends Closeable> resources) throws IOException {
        IOException first = null;
        for (Closeable resource : resources) {
            try {
                resource.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Closes a resource (if any) because of {@code cause}: a failure to close is added to it. */
    static void quietly(AutoCloseable resource, Exception cause) {
        if (resource == null) {
            return;
        }
        try {
            resource.close();
        } catch (Exception e) {
            cause.addSuppressed(e);
        }
    }
}
