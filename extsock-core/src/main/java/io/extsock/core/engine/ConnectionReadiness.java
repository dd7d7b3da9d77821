package io.extsock.core.engine;

import io.extsock.core.stream.IwarpStream;
import io.extsock.spi.Readiness;
import io.extsock.verbs.CompletionQueue;

/**
 * One IWARP_MODE connection's readiness, as a selector asks for it: its stream's, its completion
 * queue's and its end's, read without waiting; and the driver's signals as the calls that say it
 * may have changed.
 */
final class ConnectionReadiness implements Readiness {

    private final IwarpStream stream;
    private final CompletionQueue completions;
    private final ChannelDriver driver;

    /**
     * @param stream the connection's stream, or null when it has none (every stream call then
     *     fails at once, which is ready for both)
     */
    ConnectionReadiness(IwarpStream stream, CompletionQueue completions, ChannelDriver driver) {
        this.stream = stream;
        this.completions = completions;
        this.driver = driver;
    }

    @Override
    public int readyOps() {
        int ops = 0;
        if (stream == null || stream.readable()) {
            ops |= READABLE;
        }
        if (stream == null || stream.writable()) {
            ops |= WRITABLE;
        }
        if (completions.size() > 0) {
            ops |= COMPLETIONS;
        }
        if (driver.isClosed()) {
            ops |= CLOSED;
        }
        return ops;
    }

    @Override
    public Watch watch(Runnable changed) {
        return driver.watchReadiness(changed);
    }
}
