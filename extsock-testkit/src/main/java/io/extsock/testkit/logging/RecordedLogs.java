package io.extsock.testkit.logging;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.logging.Handler;
import java.util.logging.LogRecord;

/**
 * A java.util.logging handler that keeps every record it is given, for tests that check what
 * the engine logged (from any thread).
 */
public final class RecordedLogs extends Handler {

    private final List<LogRecord> records = new ArrayList<>();

    @Override
    public synchronized void publish(LogRecord record) {
        records.add(record);
    }

    /** The first record kept that matches, if any. */
    public synchronized Optional<LogRecord> first(Predicate<LogRecord> matching) {
        return records.stream().filter(matching).findFirst();
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
}
