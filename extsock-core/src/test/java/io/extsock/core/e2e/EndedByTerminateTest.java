package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A connection ended by a Terminate, as the application meets it: an RDMA Read of a region the
 * peer may only write. The failed Read's completion and a later post on either end say what
 * happened, each naming the cause once, and a post throws the API's type (a {@link
 * SocketException}, as a closed {@code java.net.Socket} does), not an engine class.
 */
@Timeout(60)
class EndedByTerminateTest {

    private static final String CAUSE = "access rights violation";

    @Test
    void aRefusedReadEndsTheConnectionAndEachMessageSaysWhyOnce() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection client = pair.clientVerbs();
            IwarpConnection server = pair.serverVerbs();
            MemoryRegion writeOnly = server.register(ByteBuffer.allocateDirect(100), EnumSet.of(Access.REMOTE_WRITE));
            MemoryRegion sink = client.register(ByteBuffer.allocateDirect(100), EnumSet.of(Access.LOCAL_WRITE));

            WorkCompletion read = client.submit(new ReadRequest().source(writeOnly.remote()).sink(sink.slice(0, 100)))
                    .get(20, TimeUnit.SECONDS);

            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, read.status(), read.toString());
            assertSaysOnce(read.detail());
            SocketException clientEnded = assertThrows(SocketException.class,
                    () -> client.post(new SendRequest().gather(sink.slice(0, 10))));
            assertEquals(SocketException.class, clientEnded.getClass(), "the API's type, not the engine's");
            assertTrue(clientEnded.getMessage().startsWith("the iWARP connection has ended: terminated by the peer"),
                    clientEnded.getMessage());
            assertSaysOnce(clientEnded.getMessage());

            JfrEventsTest.awaitTrue(() -> server.toString().contains("state=CLOSED"));  // it sent the Terminate
            SocketException serverEnded = assertThrows(SocketException.class,
                    () -> server.post(new ReceiveRequest().scatter(writeOnly.slice(0, 10))));
            assertEquals(SocketException.class, serverEnded.getClass(), "the API's type, not the engine's");
            assertTrue(serverEnded.getMessage().contains("terminated by this side"), serverEnded.getMessage());
            assertTrue(serverEnded.getMessage().contains("RDMA Read of 100 octets"), serverEnded.getMessage());
            assertSaysOnce(serverEnded.getMessage());
        }
    }

    private static void assertSaysOnce(String message) {
        int first = message.indexOf(CAUSE);
        assertTrue(first >= 0, "'" + CAUSE + "' in: " + message);
        assertEquals(-1, message.indexOf(CAUSE, first + 1), "'" + CAUSE + "' more than once in: " + message);
    }
}
