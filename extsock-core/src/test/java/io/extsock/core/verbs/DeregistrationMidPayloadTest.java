package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.extsock.verbs.Access;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.WriteRequest;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A region deregistered while an RDMA Write's segment is half placed into it: the rest of that
 * segment's payload is read (and its CRC checked) but goes nowhere, and the Write's next
 * segment names a dead STag, so the receiver ends the connection with a Terminate. Replayed
 * octet for octet from a real Write (tagged placement has no sequence numbers), fed staged or
 * read "directly" as the engine reads large payloads, and cut at many points.
 */
class DeregistrationMidPayloadTest {

    private static final int PAYLOAD = 32 * 1024;
    private static final byte SENTINEL = (byte) 0xC3;

    @ParameterizedTest(name = "direct reads: {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("after close() mid-payload, not one more octet lands; the Write's next segment is an invalid STag")
    void noOctetLandsAfterClose(boolean directReads) throws Exception {
        byte[] write = null;
        for (int cut = 7; ; cut += 997) {
            EmbeddedPair pair = EmbeddedPair.open(cut, 64 * 1024);
            IwarpConnection client = pair.initiator().verbs();
            ByteBuffer buffer = ByteBuffer.allocateDirect(PAYLOAD);
            MemoryRegion region = pair.responder().verbs().register(buffer,
                    EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
            MemoryRegion source = client.register(ByteBuffer.allocateDirect(PAYLOAD), Set.of());
            for (int i = 0; i < PAYLOAD; i++) {
                source.buffer().put(i, (byte) 0x5A);
            }
            int before = pair.initiator().written().length;
            client.submit(new WriteRequest().gather(source.slice(0, PAYLOAD))
                    .target(new RemoteBuffer(region.stag(), 0, PAYLOAD))).get();
            byte[] all = pair.initiator().written();
            write = Arrays.copyOfRange(all, before, all.length);
            if (cut >= write.length) {
                return;
            }
            QueuePair receiver = pair.responder().queuePair;

            ByteBuffer octets = ByteBuffer.wrap(write);
            feed(receiver, octets, cut, directReads);
            region.close();
            fill(buffer, SENTINEL);
            feed(receiver, octets, write.length - cut, directReads);

            for (int i = 0; i < PAYLOAD; i++) {
                if (buffer.get(i) != SENTINEL) {
                    fail("cut at " + cut + ": octet " + i + " was written after close()");
                }
            }
            boolean lastSegmentCut = write.length - cut <= segmentLength(write);
            if (!lastSegmentCut) {
                assertFalse(receiver.isConnected(), "cut at " + cut + ": the next segment ends the connection");
                assertTrue(receiver.failure().contains("invalid STag"), receiver.failure());
            }
        }
    }

    /** Feeds {@code count} octets as the engine would: staged, or payload straight into its destination. */
    private static void feed(QueuePair receiver, ByteBuffer octets, int count, boolean directReads) {
        int end = octets.position() + count;
        while (octets.position() < end && receiver.isConnected()) {
            int direct = directReads ? receiver.directCapacity() : 0;
            int take = Math.min(end - octets.position(), direct > 0 ? direct : 64);
            ByteBuffer piece = octets.duplicate().limit(octets.position() + take);
            if (direct > 0) {
                receiver.directTarget().put(piece);
                receiver.placedDirectly(take);
            } else {
                receiver.receive(piece);
            }
            octets.position(piece.position());
        }
    }

    /** The FPDU length of the first segment (its MPA length field, the ULPDU, pad and CRC). */
    private static int segmentLength(byte[] fpdus) {
        int ulpdu = (fpdus[0] & 0xFF) << 8 | fpdus[1] & 0xFF;
        return 2 + ulpdu + (-(2 + ulpdu) & 3) + 4;
    }

    private static void fill(ByteBuffer buffer, byte value) {
        for (int i = 0; i < buffer.capacity(); i++) {
            buffer.put(i, value);
        }
    }
}
