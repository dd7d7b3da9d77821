package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.verbs.EmbeddedPair.Side;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WorkOpcode;
import io.extsock.verbs.WorkRequest;
import io.extsock.verbs.WriteRequest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Posting lists ({@link IwarpConnection#post(List)}): one gathering write for the whole list
 * where single posts make one each, the list's order on the wire, and a list refused whole,
 * with nothing of it posted, for every reason a post refuses a request.
 */
class PostingListTest {

    private static final int MESSAGE = 4096;
    private static final int COUNT = 12;

    @Test
    @DisplayName("Sends posted one by one take a gathering write each; the same Sends as a list take one")
    void aListGoesOutInOneGatheringWrite() throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(1, 64 * 1024);
        Side sender = pair.initiator();
        sender.transmitInline(true);  // as the engine when the transmit lock is free: at once, on the posting thread
        MemoryRegion outbox = numberedMessages(sender.verbs(), COUNT);
        MemoryRegion inbox = postReceives(pair.responder().verbs(), 2 * COUNT);

        int before = sender.gatheringWrites();
        for (int i = 0; i < COUNT; i++) {
            sender.verbs().post(send(outbox, i));
        }
        assertEquals(COUNT, sender.gatheringWrites() - before, "one by one: a write each");

        List<SendRequest> list = new ArrayList<>();
        for (int i = 0; i < COUNT; i++) {
            list.add(send(outbox, i).tag(COUNT + i));
        }
        before = sender.gatheringWrites();
        sender.verbs().post(list);
        assertEquals(1, sender.gatheringWrites() - before, "the list: one write for all " + COUNT);

        pair.pump();
        for (int i = 0; i < 2 * COUNT; i++) {
            WorkCompletion sent = take(sender.verbs());
            assertEquals(CompletionStatus.SUCCESS, sent.status(), sent.detail());
            assertEquals(i, sent.tag(), "Send completions in posting order");
            WorkCompletion received = take(pair.responder().verbs());
            assertEquals(CompletionStatus.SUCCESS, received.status(), received.detail());
            assertEquals(i, received.tag());
            assertArrayEquals(message(i % COUNT), bytes(inbox, i), "message " + i + " arrives whole and in order");
        }
    }

    @Test
    @DisplayName("A list mixing Writes, a Read, a Send and a Receive keeps its order: the Send finds the Writes placed")
    void aMixedListKeepsItsOrder() throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(2, 300);
        IwarpConnection client = pair.initiator().verbs();
        IwarpConnection server = pair.responder().verbs();
        MemoryRegion target = server.register(ByteBuffer.allocateDirect(2 * MESSAGE),
                EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ));
        MemoryRegion serverInbox = postReceives(server, 1);
        MemoryRegion outbox = numberedMessages(client, 3);
        MemoryRegion readBack = client.register(ByteBuffer.allocateDirect(MESSAGE), EnumSet.of(Access.LOCAL_WRITE));
        MemoryRegion clientInbox = client.register(ByteBuffer.allocateDirect(MESSAGE), EnumSet.of(Access.LOCAL_WRITE));

        client.post(List.of(
                new WriteRequest().tag(10).gather(outbox.slice(0, MESSAGE)).target(target.remote(0, MESSAGE)),
                new WriteRequest().tag(11).gather(outbox.slice(MESSAGE, MESSAGE)).target(target.remote(MESSAGE, MESSAGE)),
                new ReadRequest().tag(12).source(target.remote(0, MESSAGE)).sink(readBack.slice(0, MESSAGE)),
                new ReceiveRequest().tag(13).scatter(clientInbox.slice(0, MESSAGE)),
                send(outbox, 2).tag(14)));
        pair.pump();

        assertEquals(List.of(10L, 11L, 12L, 14L), sendQueueTags(client), "completions in the list's order");
        WorkCompletion received = take(server);
        assertEquals(WorkOpcode.RECEIVE, received.opcode());
        assertArrayEquals(message(0), bytes(target, 0), "placed before the Send behind it arrived");
        assertArrayEquals(message(1), bytes(target, 1));
        assertArrayEquals(message(0), bytes(readBack, 0), "the Read, behind the first Write, reads what it wrote");
        assertArrayEquals(message(2), bytes(serverInbox, 0));

        // The list's Receive was posted too: the server's Send lands in it.
        server.post(new SendRequest().tag(20).gather(target.slice(MESSAGE, MESSAGE)));
        pair.pump();
        WorkCompletion reply = take(client);
        assertEquals(13, reply.tag());
        assertEquals(WorkOpcode.RECEIVE, reply.opcode());
        assertArrayEquals(message(1), bytes(clientInbox, 0));
    }

    @Test
    @DisplayName("A list with one request post() refuses is refused whole, naming the request; nothing of it is posted")
    void anInvalidRequestRefusesTheWholeList() throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(3, 64 * 1024);
        Side sender = pair.initiator();
        sender.transmitInline(true);
        MemoryRegion outbox = numberedMessages(sender.verbs(), 2);
        postReceives(pair.responder().verbs(), 2);
        int writes = sender.gatheringWrites();  // the RTR's

        List<WorkRequest> list = List.of(send(outbox, 0), send(outbox, 1),
                new WriteRequest().tag(99).gather(outbox.slice(0, 8)));  // no target
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> sender.verbs().post(list));
        assertTrue(refused.getMessage().contains("request 2 of the list") && refused.getMessage().contains("target"),
                refused.getMessage());
        assertNothingPosted(pair, writes);

        List<WorkRequest> withNull = Arrays.asList(send(outbox, 0), null);
        IllegalArgumentException nothing = assertThrows(IllegalArgumentException.class,
                () -> sender.verbs().post(withNull));
        assertTrue(nothing.getMessage().contains("request 1 of the list"), nothing.getMessage());
        assertNothingPosted(pair, writes);
    }

    @Test
    @DisplayName("A list the completion queue has no room for is refused whole; one that fits is posted")
    void aListBeyondTheCompletionQueueIsRefusedWhole() throws Exception {
        EmbeddedPair pair = EmbeddedPair.openSmall(EmbeddedPair.Terms.defaults(), 4, 64 * 1024);  // queues of 16
        Side sender = pair.initiator();
        MemoryRegion outbox = numberedMessages(sender.verbs(), 1);
        MemoryRegion target = pair.responder().verbs().register(ByteBuffer.allocateDirect(MESSAGE),
                EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
        List<WriteRequest> writes = new ArrayList<>();
        for (int i = 0; i < 17; i++) {
            writes.add(new WriteRequest().tag(i).gather(outbox.slice(0, MESSAGE)).target(target.remote()));
        }
        sender.verbs().post(writes.get(0));  // one slot taken: 15 left

        IllegalStateException full = assertThrows(IllegalStateException.class,
                () -> sender.verbs().post(writes.subList(1, 17)));
        assertTrue(full.getMessage().contains("list of 16"), full.getMessage());
        sender.verbs().post(writes.subList(1, 16));  // 15 fit: the refused list held no slot
        assertThrows(IllegalStateException.class, () -> sender.verbs().post(writes.subList(16, 17)));
        pair.pump();
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L),
                sendQueueTags(sender.verbs()));
    }

    @Test
    @DisplayName("A list the send or receive queue has no room for is refused whole")
    void aListBeyondTheWorkQueuesIsRefusedWhole() throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(5, 64 * 1024);
        Side sender = pair.initiator();  // not inline: the Writes stay queued until the pump
        MemoryRegion outbox = numberedMessages(sender.verbs(), 1);
        MemoryRegion target = pair.responder().verbs().register(ByteBuffer.allocateDirect(MESSAGE),
                EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
        WriteRequest write = new WriteRequest().gather(outbox.slice(0, 16)).target(target.remote());
        List<WriteRequest> writes = new ArrayList<>();
        for (int i = 0; i < QueuePair.SEND_QUEUE_DEPTH; i++) {
            writes.add(write);
        }
        sender.verbs().post(write);
        IllegalStateException sendQueueFull = assertThrows(IllegalStateException.class,
                () -> sender.verbs().post(writes));
        assertTrue(sendQueueFull.getMessage().contains("send queue full"), sendQueueFull.getMessage());

        MemoryRegion inbox = pair.responder().verbs().register(ByteBuffer.allocateDirect(16),
                EnumSet.of(Access.LOCAL_WRITE));
        ReceiveRequest receive = new ReceiveRequest().scatter(inbox.slice(0, 16));
        List<ReceiveRequest> receives = new ArrayList<>();
        for (int i = 0; i <= QueuePair.RECEIVE_QUEUE_DEPTH; i++) {
            receives.add(receive);
        }
        IllegalStateException receiveQueueFull = assertThrows(IllegalStateException.class,
                () -> pair.responder().verbs().post(receives));
        assertTrue(receiveQueueFull.getMessage().contains("receive queue full"), receiveQueueFull.getMessage());

        pair.pump();
        assertEquals(1, sender.verbs().completions().size(), "only the single Write was posted");
        take(sender.verbs());
        sender.verbs().post(writes);  // once it completed, a list of the whole depth fits
        pair.pump();
        assertEquals(QueuePair.SEND_QUEUE_DEPTH, sender.verbs().completions().size());
        assertEquals(0, pair.responder().verbs().completions().size(), "no Receive of the refused list was posted");
    }

    @Test
    @DisplayName("While the socket's streams own Sends and Receives, a list holding one is refused whole")
    void streamsOwnSendsInAList() throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(6, 64 * 1024);
        Side sender = pair.initiator();
        sender.transmitInline(true);
        MemoryRegion outbox = numberedMessages(sender.verbs(), 1);
        MemoryRegion target = pair.responder().verbs().register(ByteBuffer.allocateDirect(MESSAGE),
                EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
        ((QueuePairVerbs) sender.verbs()).setStreamsOwnSendsAndReceives(true);
        int writes = sender.gatheringWrites();
        List<WorkRequest> list = List.of(
                new WriteRequest().gather(outbox.slice(0, MESSAGE)).target(target.remote()), send(outbox, 0));
        IllegalStateException owned = assertThrows(IllegalStateException.class, () -> sender.verbs().post(list));
        assertTrue(owned.getMessage().contains("STREAMS"), owned.getMessage());
        assertNothingPosted(pair, writes);
    }

    @Test
    @DisplayName("A list on an ended connection is refused with the reason it ended; an empty list posts nothing")
    void anEndedConnectionRefusesAList() throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(7, 64 * 1024);
        Side sender = pair.initiator();
        MemoryRegion outbox = numberedMessages(sender.verbs(), 1);
        int writes = sender.gatheringWrites();
        sender.verbs().post(List.of());
        pair.pump();
        assertEquals(writes, sender.gatheringWrites(), "an empty list writes nothing");
        sender.queuePair.connectionLost("the peer closed the connection");
        IOException ended = assertThrows(IOException.class, () -> sender.verbs().post(List.of(send(outbox, 0))));
        assertTrue(ended.getMessage().contains("the peer closed the connection"), ended.getMessage());
        assertEquals(0, sender.verbs().completions().size());
    }

    private static WorkCompletion take(IwarpConnection verbs) throws InterruptedException {
        WorkCompletion completion = verbs.completions().take(5, TimeUnit.SECONDS);
        assertTrue(completion != null, "a completion");
        return completion;
    }

    private static void assertNothingPosted(EmbeddedPair pair, int writesBefore) {
        pair.pump();
        assertEquals(0, pair.initiator().verbs().completions().size(), "no completion: nothing was posted");
        assertEquals(0, pair.responder().verbs().completions().size(), "nothing arrived");
        assertEquals(writesBefore, pair.initiator().gatheringWrites(), "nothing was written");
    }

    /** The tags of the Send, Write and Read completions waiting, in order. */
    private static List<Long> sendQueueTags(IwarpConnection verbs) throws InterruptedException {
        List<Long> tags = new ArrayList<>();
        while (verbs.completions().size() > 0) {
            WorkCompletion c = take(verbs);
            assertEquals(CompletionStatus.SUCCESS, c.status(), c.detail());
            if (c.opcode() != WorkOpcode.RECEIVE) {
                tags.add(c.tag());
            }
        }
        return tags;
    }

    /** {@code count} messages of {@link #MESSAGE} octets, message i filled from {@link #message}. */
    private static MemoryRegion numberedMessages(IwarpConnection verbs, int count) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(count * MESSAGE);
        for (int i = 0; i < count; i++) {
            buffer.put(message(i));
        }
        return verbs.register(buffer.clear(), Set.of());
    }

    private static MemoryRegion postReceives(IwarpConnection verbs, int count) throws IOException {
        MemoryRegion inbox = verbs.register(ByteBuffer.allocateDirect(count * MESSAGE), EnumSet.of(Access.LOCAL_WRITE));
        for (int i = 0; i < count; i++) {
            verbs.post(new ReceiveRequest().tag(i).scatter(inbox.slice((long) i * MESSAGE, MESSAGE)));
        }
        return inbox;
    }

    private static SendRequest send(MemoryRegion outbox, int message) {
        return new SendRequest().tag(message).gather(outbox.slice((long) message * MESSAGE, MESSAGE));
    }

    private static byte[] message(int number) {
        byte[] octets = new byte[MESSAGE];
        for (int i = 0; i < MESSAGE; i++) {
            octets[i] = (byte) (number * 31 + i * 7);
        }
        return octets;
    }

    private static byte[] bytes(MemoryRegion region, int slot) {
        byte[] octets = new byte[MESSAGE];
        region.buffer().get(slot * MESSAGE, octets);
        return octets;
    }
}
