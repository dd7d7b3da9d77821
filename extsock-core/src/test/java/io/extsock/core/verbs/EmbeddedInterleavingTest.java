package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * RFC 5040 section 5.2: Read Responses take turns with the send queue; a multi-segment Read
 * Response and the Sends around it cross as whole messages, each placed where it belongs.
 * Without a socket ({@link EmbeddedPair}).
 */
class EmbeddedInterleavingTest {

    private static final int READ_RESPONSE = 0x2;
    private static final int SEND = 0x3;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    @DisplayName("Sends and multi-segment Read Responses alternate message by message; every octet lands in place")
    void sendsInterleaveWithReadResponses(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(EmbeddedPair.Terms.defaults().withMaxFpduSize(512), seed, 300);
        IwarpConnection client = pair.initiator().verbs();
        IwarpConnection server = pair.responder().verbs();
        ByteBuffer source = ByteBuffer.allocateDirect(8000);
        for (int i = 0; i < source.capacity(); i++) {
            source.put(i, (byte) (i * 7));
        }
        MemoryRegion exposed = server.register(source, EnumSet.of(Access.REMOTE_READ));
        MemoryRegion outgoing = server.register(ByteBuffer.allocateDirect(3000), EnumSet.of(Access.LOCAL_WRITE));
        for (int i = 0; i < 3000; i++) {
            outgoing.buffer().put(i, (byte) (i * 13));
        }
        MemoryRegion sinks = client.register(ByteBuffer.allocateDirect(8000), EnumSet.of(Access.LOCAL_WRITE));
        MemoryRegion inbox = client.register(ByteBuffer.allocateDirect(3000), EnumSet.of(Access.LOCAL_WRITE));
        for (int i = 0; i < 3; i++) {
            client.post(new ReceiveRequest().tag(100 + i).scatter(inbox.slice(i * 1000L, 1000)));
            server.post(new SendRequest().tag(200 + i).gather(outgoing.slice(i * 1000L, 1000)));
        }
        client.post(new ReadRequest().tag(1).source(exposed.remote().slice(0, 4000)).sink(sinks.slice(0, 4000)));
        client.post(new ReadRequest().tag(2).source(exposed.remote().slice(4000, 4000)).sink(sinks.slice(4000, 4000)));
        pair.carry(pair.initiator());  // both requests reach the server before it sends anything
        pair.pump();

        Map<Long, CompletionStatus> done = new HashMap<>();
        WorkCompletion completion;
        while ((completion = client.completions().take(0, TimeUnit.SECONDS)) != null) {
            done.put(completion.tag(), completion.status());
        }
        assertEquals(Map.of(1L, CompletionStatus.SUCCESS, 2L, CompletionStatus.SUCCESS, 100L, CompletionStatus.SUCCESS,
                101L, CompletionStatus.SUCCESS, 102L, CompletionStatus.SUCCESS), done);
        for (int i = 0; i < 8000; i++) {
            assertEquals((byte) (i * 7), sinks.buffer().get(i), "Read octet " + i);
        }
        for (int i = 0; i < 3000; i++) {
            assertEquals((byte) (i * 13), inbox.buffer().get(i), "Send octet " + i);
        }
        List<Integer> messages = new ArrayList<>();
        for (int opcode : pair.responder().opcodesWritten()) {
            if (messages.isEmpty() || messages.get(messages.size() - 1) != opcode) {
                messages.add(opcode);
            }
        }
        assertEquals(List.of(SEND, READ_RESPONSE, SEND, READ_RESPONSE, SEND), messages,
                "the server's messages, runs of segments collapsed: they take turns");
    }
}
