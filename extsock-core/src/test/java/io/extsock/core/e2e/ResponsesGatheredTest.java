package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.IwarpStatistics;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.MessageType;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.WorkCompletion;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the engine finds to send while it processes what it read (here Read Responses) goes
 * out a few messages to a gathering write, not a system call per message found; and a posting
 * list goes out in one write. Counted by the connections' own
 * statistics of socket writes, over loopback.
 */
@Timeout(60)
class ResponsesGatheredTest {

    private static final int READS = 16;  // the default ORD and IRD: all of them in flight at once
    private static final int SIZE = 4096;

    @Test
    @DisplayName("Read Requests that arrive together are answered in one gathering write, not one write each")
    void readRequestsArrivingTogetherAreAnsweredTogether() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection client = pair.clientVerbs();
            IwarpConnection server = pair.serverVerbs();
            byte[] data = new byte[READS * SIZE];
            new SplittableRandom(13).nextBytes(data);
            MemoryRegion exposed = server.register(ByteBuffer.allocateDirect(data.length).put(data).flip(),
                    EnumSet.of(Access.REMOTE_READ));
            MemoryRegion sink = client.register(ByteBuffer.allocateDirect(data.length), EnumSet.of(Access.LOCAL_WRITE));
            List<ReadRequest> reads = new ArrayList<>();
            for (int i = 0; i < READS; i++) {
                reads.add(new ReadRequest().tag(i).source(exposed.remote((long) i * SIZE, SIZE))
                        .sink(sink.slice((long) i * SIZE, SIZE)));
            }
            // One Read first, so that the count starts on a connection whose setup is over (the
            // initiator's ready-to-receive message, which waits up to a millisecond for the first
            // request, and whatever the engine's thread still sends for the start). CI once
            // counted the posting list as two writes, on JDK 25 under load; a 5 ms pause before
            // the list did not make that happen again here, so the cause is not pinned down.
            client.post(new ReadRequest().tag(-1).source(exposed.remote(0, SIZE)).sink(sink.slice(0, SIZE)));
            WorkCompletion first = client.completions().take(20, TimeUnit.SECONDS);
            assertNotNull(first, "the first Read completes");
            assertEquals(CompletionStatus.SUCCESS, first.status(), first.detail());
            IwarpStatistics clientBefore = client.statistics();
            IwarpStatistics serverBefore = server.statistics();

            client.post(reads);
            for (int i = 0; i < READS; i++) {
                WorkCompletion done = client.completions().take(20, TimeUnit.SECONDS);
                assertNotNull(done, "Read " + i + " completes");
                assertEquals(CompletionStatus.SUCCESS, done.status(), done.detail());
                assertEquals(i, done.tag());
            }
            byte[] landed = new byte[data.length];
            sink.buffer().get(0, landed);
            assertArrayEquals(data, landed);

            IwarpStatistics clientAfter = client.statistics();
            IwarpStatistics serverAfter = server.statistics();
            assertEquals(READS, clientAfter.messagesSent(MessageType.RDMA_READ_REQUEST)
                    - clientBefore.messagesSent(MessageType.RDMA_READ_REQUEST));
            assertEquals(1, clientAfter.socketWrites() - clientBefore.socketWrites(),
                    "the posting list's " + READS + " Read Requests in one write");
            assertEquals(READS, serverAfter.messagesSent(MessageType.RDMA_READ_RESPONSE)
                    - serverBefore.messagesSent(MessageType.RDMA_READ_RESPONSE));
            long responseWrites = serverAfter.socketWrites() - serverBefore.socketWrites();
            // One read takes the requests (one TCP segment of ~450 octets); their responses go
            // out a write per 4 (ChannelDriver.TRANSMIT_EVERY_FOUND), and a write the socket took
            // only part of makes one more.
            assertTrue(responseWrites <= READS / 4 + 2, READS + " Read Responses took " + responseWrites + " writes");
        }
    }
}
