package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * RFC 5041 section 4.3: the MSN wraps to 0 after 0xFFFFFFFF, and multi-segment Sends cross the
 * wrap whole and in order. Without a socket ({@link EmbeddedPair}).
 */
class EmbeddedMsnWrapTest {

    private static final int SEND = 0x3;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("Four multi-segment Sends with MSNs 0xFFFFFFFE, 0xFFFFFFFF, 0, 1: each lands whole, in order")
    void sendsCrossTheMsnWrap(long seed) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(EmbeddedPair.Terms.defaults().withMaxFpduSize(512), seed, 200);
        pair.skipMessageSequenceNumbers(pair.initiator(), 0, 0xFFFF_FFFE);
        IwarpConnection client = pair.initiator().verbs();
        IwarpConnection server = pair.responder().verbs();
        MemoryRegion inbox = server.register(ByteBuffer.allocateDirect(4 * 2000), EnumSet.of(Access.LOCAL_WRITE));
        MemoryRegion outbox = client.register(ByteBuffer.allocateDirect(4 * 2000), EnumSet.of(Access.LOCAL_WRITE));
        for (int i = 0; i < outbox.buffer().capacity(); i++) {
            outbox.buffer().put(i, (byte) (i * 31 + 7));
        }
        for (int i = 0; i < 4; i++) {
            server.post(new ReceiveRequest().tag(i).scatter(inbox.slice(i * 2000L, 2000)));
            client.post(new SendRequest().tag(10 + i).gather(outbox.slice(i * 2000L, 2000)));
        }
        pair.pump();
        for (int i = 0; i < 4; i++) {
            WorkCompletion received = server.completions().take(1, TimeUnit.SECONDS);
            assertNotNull(received, "receive " + i);
            assertEquals(i, received.tag());
            assertEquals(CompletionStatus.SUCCESS, received.status(), received.toString());
            assertEquals(2000, received.byteLength());
        }
        for (int i = 0; i < outbox.buffer().capacity(); i++) {
            assertEquals(outbox.buffer().get(i), inbox.buffer().get(i), "octet " + i);
        }
        List<Long> msns = new ArrayList<>();
        for (byte[] ulpdu : pair.initiator().ulpdusWritten()) {
            long msn = ByteBuffer.wrap(ulpdu, 10, 4).getInt() & 0xFFFF_FFFFL;  // RFC 5041 4.3: octets 10..13
            boolean last = (ulpdu[0] & 0x40) != 0;  // the L bit
            if ((ulpdu[1] & 0x0F) == SEND && last) {
                msns.add(msn);
            }
        }
        assertEquals(List.of(0xFFFF_FFFEL, 0xFFFF_FFFFL, 0L, 1L), msns, "the last segment of each Send, by MSN");
    }
}
