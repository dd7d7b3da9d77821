package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.MessageType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Test;

/**
 * Each count moves its own reading and no other, whichever array slot it lives in: every writer
 * is called with an amount of its own, and every reader is checked against what it alone was
 * given.
 */
class ConnectionCountersTest {

    @Test
    void eachWriterMovesItsOwnCountAndNoOther() {
        ConnectionCounters counters = ConnectionCounters.unnamed();
        List<Runnable> writes = new ArrayList<>();
        List<ToLongFunction<ConnectionCounters>> reads = new ArrayList<>();
        List<Long> expected = new ArrayList<>();
        long amount = 1;
        for (MessageType type : MessageType.values()) {
            long payload = 1_000 * ++amount;
            writes.add(() -> counters.messageSent(type, payload));
            reads.add(c -> c.payloadSent(type));
            expected.add(payload);
            reads.add(c -> c.messagesSent(type));
            expected.add(1L);
            long received = 1_000 * ++amount + 7;
            writes.add(() -> counters.payloadReceived(type, received));
            reads.add(c -> c.payloadReceived(type));
            expected.add(received);
            writes.add(() -> {
                counters.messageReceived(type);
                counters.messageReceived(type);
            });
            reads.add(c -> c.messagesReceived(type));
            expected.add(2L);
        }
        writes.add(() -> counters.bytesSent(11));
        reads.add(ConnectionCounters::bytesSent);
        expected.add(11L);
        writes.add(() -> counters.bytesReceived(13));
        reads.add(ConnectionCounters::bytesReceived);
        expected.add(13L);
        writes.add(() -> {
            for (int i = 0; i < 3; i++) {
                counters.socketWrite();
            }
        });
        reads.add(ConnectionCounters::socketWrites);
        expected.add(3L);
        writes.add(() -> {
            for (int i = 0; i < 4; i++) {
                counters.socketRead();
            }
        });
        reads.add(ConnectionCounters::socketReads);
        expected.add(4L);
        writes.add(() -> {
            counters.spun(true);
            for (int i = 0; i < 5; i++) {
                counters.spun(false);
            }
        });
        reads.add(ConnectionCounters::spins);
        expected.add(6L);
        reads.add(ConnectionCounters::spinsFound);
        expected.add(1L);
        writes.add(() -> {
            counters.completed(CompletionStatus.SUCCESS);
            counters.completed(CompletionStatus.FLUSHED);
            counters.completed(CompletionStatus.REMOTE_ACCESS_ERROR);
        });
        reads.add(ConnectionCounters::errors);
        expected.add(1L);

        writes.forEach(Runnable::run);

        for (int i = 0; i < reads.size(); i++) {
            assertEquals(expected.get(i), reads.get(i).applyAsLong(counters), "reading " + i);
        }
        var snapshot = counters.snapshot();
        assertEquals(11, snapshot.bytesSent());
        assertEquals(13, snapshot.bytesReceived());
        assertEquals(2, snapshot.messagesReceived().get(MessageType.SEND));
    }
}
