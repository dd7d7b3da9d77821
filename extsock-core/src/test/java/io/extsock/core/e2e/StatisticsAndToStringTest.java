package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.IwarpOptions;
import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.IwarpStatistics;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.MessageType;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WriteRequest;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code IwarpConnection.statistics()} counts what moved; {@code toString()} says what the connection is. */
@Timeout(60)
class StatisticsAndToStringTest {

    @Test
    void statisticsCountEveryOperationEachWay() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection client = pair.clientVerbs();
            IwarpConnection server = pair.serverVerbs();
            MemoryRegion exposed = server.register(ByteBuffer.allocateDirect(1000),
                    EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ));
            MemoryRegion inbox = server.register(ByteBuffer.allocateDirect(10), EnumSet.of(Access.LOCAL_WRITE));
            MemoryRegion local = client.register(ByteBuffer.allocateDirect(1000), EnumSet.of(Access.LOCAL_WRITE));

            server.post(new ReceiveRequest().tag(1).scatter(inbox.slice(0, 10)));
            assertEquals(CompletionStatus.SUCCESS, client.submit(new WriteRequest().gather(local.slice(0, 1000))
                    .target(exposed.remote())).get(20, TimeUnit.SECONDS).status());
            assertEquals(CompletionStatus.SUCCESS, client.submit(new ReadRequest().source(exposed.remote().slice(0, 500))
                    .sink(local.slice(0, 500))).get(20, TimeUnit.SECONDS).status());
            assertEquals(CompletionStatus.SUCCESS, client.submit(new SendRequest().gather(local.slice(0, 10)))
                    .get(20, TimeUnit.SECONDS).status());
            assertEquals(CompletionStatus.SUCCESS, server.completions().take(20, TimeUnit.SECONDS).status());
            // A Receive into memory without the local-write right fails here, and counts as an error.
            MemoryRegion readOnly = server.register(ByteBuffer.allocateDirect(10), Set.of());
            assertEquals(CompletionStatus.LOCAL_PROTECTION_ERROR,
                    server.submit(new ReceiveRequest().scatter(readOnly.slice(0, 10))).get(20, TimeUnit.SECONDS)
                            .status());

            IwarpStatistics mine = client.statistics();
            IwarpStatistics theirs = server.statistics();
            assertEquals(1, mine.messagesSent(MessageType.RDMA_WRITE), "ours alone: the RTR (a zero-length Write) is the"
                    + " protocol's");
            assertEquals(1000, mine.payloadSent().get(MessageType.RDMA_WRITE));
            assertEquals(1, mine.messagesSent(MessageType.RDMA_READ_REQUEST));
            assertEquals(0, mine.payloadSent().get(MessageType.RDMA_READ_REQUEST));
            assertEquals(1, mine.messagesReceived(MessageType.RDMA_READ_RESPONSE));
            assertEquals(500, mine.payloadReceived().get(MessageType.RDMA_READ_RESPONSE));
            assertEquals(1, mine.messagesSent(MessageType.SEND));
            assertEquals(10, mine.payloadSent().get(MessageType.SEND));
            assertEquals(0, mine.messagesSent(MessageType.TERMINATE));
            assertEquals(0, mine.errors());
            assertEquals(0, mine.streamWindow(), "no stream over a verbs-only connection");

            assertEquals(1, theirs.messagesReceived(MessageType.RDMA_WRITE), "ours, not the RTR");
            assertEquals(1000, theirs.payloadReceived().get(MessageType.RDMA_WRITE));
            assertEquals(1, theirs.messagesReceived(MessageType.RDMA_READ_REQUEST));
            assertEquals(1, theirs.messagesSent(MessageType.RDMA_READ_RESPONSE));
            assertEquals(500, theirs.payloadSent().get(MessageType.RDMA_READ_RESPONSE));
            assertEquals(1, theirs.messagesReceived(MessageType.SEND));
            assertEquals(10, theirs.payloadReceived().get(MessageType.SEND));
            assertEquals(1, theirs.errors());

            // Every octet one end handed to TCP, the other read: framing, CRC and headers on top of the payload.
            assertEquals(mine.bytesSent(), theirs.bytesReceived());
            assertEquals(theirs.bytesSent(), mine.bytesReceived());
            assertTrue(mine.bytesSent() > 1010, "" + mine);
            assertTrue(theirs.bytesSent() > 500, "" + theirs);
            // Each end wrote its messages in system calls of its own, and read the other's.
            assertTrue(mine.socketWrites() >= 3 && mine.socketWrites() <= 5, "the Write, Read Request and Send (with"
                    + " the RTR, and a write the socket took part of): " + mine);
            assertTrue(theirs.socketWrites() >= 1 && theirs.socketWrites() <= 2, "the Read Response: " + theirs);
            assertTrue(mine.socketReads() >= 1 && theirs.socketReads() >= 1,
                    "each read what came: " + mine + " / " + theirs);

            assertThrows(UnsupportedOperationException.class, () -> mine.messagesSent().put(MessageType.SEND, 0L));
            assertEquals(withoutReads(mine), withoutReads(client.statistics()),
                    "nothing moved since: the same counts (a read that finds nothing may still be made)");
        }
    }

    /** The counts, but the socket reads: an engine may still make a read that finds nothing. */
    private static IwarpStatistics withoutReads(IwarpStatistics counts) {
        return new IwarpStatistics(counts.bytesSent(), counts.bytesReceived(), counts.messagesSent(),
                counts.messagesReceived(), counts.payloadSent(), counts.payloadReceived(), counts.errors(),
                counts.streamWindow(), counts.socketWrites(), 0, counts.spins(), counts.spinsFound());
    }

    @Test
    void theStreamWindowIsCounted() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open()) {
            assertEquals(4 * 64 * 1024, pair.clientVerbs().statistics().streamWindow());
            pair.client().getOutputStream().write(new byte[100]);
            assertEquals(100, pair.accepted().getInputStream().readNBytes(100).length);
            IwarpStatistics received = pair.serverVerbs().statistics();
            assertEquals(1, received.messagesReceived(MessageType.SEND));
            assertEquals(104, received.payloadReceived().get(MessageType.SEND), "100 bytes and the stream header");
        }
    }

    @Test
    void toStringSaysWhatTheConnectionIs() throws Exception {
        IwarpConnection client;
        String clientAddress;
        String serverAddress;
        try (IwarpSocketPair pair = IwarpSocketPair.open(Map.of(IwarpOptions.CRC, false, IwarpOptions.MARKERS, true,
                IwarpOptions.IRD, 4, IwarpOptions.ORD, 6), Map.of(IwarpOptions.CRC, false))) {
            client = pair.clientVerbs();
            clientAddress = JfrEventsTest.address(pair.client());
            serverAddress = JfrEventsTest.address(pair.accepted());
            assertEquals("IwarpConnection[peer=" + serverAddress + ", local=" + clientAddress
                    + ", state=CONNECTED, mpa=2, role=initiator, crc=off, markers=off/on, ird=4, ord=6, maxFpdu="
                    + client.settings().maxFpduSize() + "]", client.toString());
            String server = pair.serverVerbs().toString();
            assertTrue(server.startsWith("IwarpConnection[peer=" + clientAddress + ", local=" + serverAddress
                    + ", state=CONNECTED, mpa=2, role=responder, crc=off, markers=on/off, ird=6, ord=4"), server);
        }
        JfrEventsTest.awaitTrue(() -> client.toString().contains("state=CLOSED"));
        assertTrue(client.toString().startsWith("IwarpConnection[peer=" + serverAddress + ", local=" + clientAddress
                + ", state=CLOSED ("), client.toString());
    }
}
