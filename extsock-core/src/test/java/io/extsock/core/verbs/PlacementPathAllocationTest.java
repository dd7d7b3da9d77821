package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.ThreadAllocations;
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
import org.junit.jupiter.api.Test;

/**
 * The receive path of RDMA Writes, with the STag lookup of the random-STag table and the
 * region fence's calls, allocates nothing: the FPDUs of real Writes are fed to the responder's
 * queue pair again and again (tagged placement has no sequence numbers, so the same octets are
 * a valid stream each time), staged and read "directly" as the engine reads large payloads.
 */
class PlacementPathAllocationTest {

    private static final int WRITES = 8;
    private static final int PAYLOAD = 16 * 1024;
    private static final int ROUNDS = 2_000;

    @Test
    @DisplayName("placing RDMA Writes (lookup, fence, copy, direct reads) allocates nothing")
    void placementAllocatesNothing() throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(1, 64 * 1024);
        IwarpConnection client = pair.initiator().verbs();
        MemoryRegion target = pair.responder().verbs().register(ByteBuffer.allocateDirect(WRITES * PAYLOAD),
                EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
        MemoryRegion source = client.register(ByteBuffer.allocateDirect(PAYLOAD), Set.of());
        int before = pair.initiator().written().length;
        for (int i = 0; i < WRITES; i++) {
            source.buffer().put(0, (byte) (i + 1));
            client.submit(new WriteRequest().gather(source.slice(0, PAYLOAD))
                    .target(new RemoteBuffer(target.stag(), (long) i * PAYLOAD, PAYLOAD))).get();
        }
        byte[] all = pair.initiator().written();
        byte[] writes = Arrays.copyOfRange(all, before, all.length);
        QueuePair responder = pair.responder().queuePair;
        ByteBuffer staged = ByteBuffer.allocateDirect(writes.length);
        staged.put(writes).flip();

        Runnable stagedRounds = () -> {
            for (int round = 0; round < ROUNDS; round++) {
                staged.rewind();
                responder.receive(staged);
            }
        };
        ByteBuffer piece = staged.duplicate();
        Runnable directRounds = () -> {
            for (int round = 0; round < ROUNDS; round++) {
                feedWithDirectReads(responder, staged.rewind(), piece);
            }
        };
        ThreadAllocations allocations = ThreadAllocations.counter();
        assertEquals(0, allocatedBy(allocations, stagedRounds), "octets allocated placing staged Writes");
        assertEquals(0, allocatedBy(allocations, directRounds), "octets allocated placing Writes read directly");
        assertTrue(responder.isConnected(), "the replayed Writes were all valid: " + pair.responder().failure());
        assertEquals((byte) WRITES, target.buffer().get((WRITES - 1) * PAYLOAD));
    }

    /** As the engine: headers through staging, payload straight into its destination. */
    private static void feedWithDirectReads(QueuePair queuePair, ByteBuffer octets, ByteBuffer piece) {
        while (octets.hasRemaining()) {
            int direct = queuePair.directCapacity();
            if (direct > 0) {
                ByteBuffer target = queuePair.directTarget();
                int count = Math.min(direct, octets.remaining());
                piece.limit(octets.position() + count).position(octets.position());
                target.put(piece);
                octets.position(octets.position() + count);
                queuePair.placedDirectly(count);
            } else {
                int limit = octets.limit();
                octets.limit(octets.position() + Math.min(64, octets.remaining()));
                queuePair.receive(octets);
                octets.limit(limit);
            }
        }
    }

    private static long allocatedBy(ThreadAllocations allocations, Runnable work) {
        work.run();  // warm up
        work.run();
        long before = allocations.now();
        work.run();
        return allocations.now() - before - allocations.measuringCost();
    }
}
