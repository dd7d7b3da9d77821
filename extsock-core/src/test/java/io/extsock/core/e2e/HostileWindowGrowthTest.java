package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.verbs.QueuePairVerbs;
import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.SendRequest;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A peer's "my writer waited for credits" flag is its word; the memory the window takes is ours.
 * The client here is such a peer: it takes its Sends back from its own stream and posts raw
 * stream messages (as in {@link StreamProtocolViolationTest}), never more than the server has
 * buffers for (the server's application reads in between, which posts them again).
 */
@Timeout(60)
class HostileWindowGrowthTest {

    private static final int WINDOW = 4 * 64 * 1024;
    private static final int MAX_WINDOW = 16 * 64 * 1024;
    /** The payload that fills one stream receive buffer: 64 KiB, behind the header. */
    private static final int FULL = 64 * 1024;
    private static final int DATA = 1;
    private static final int WAITED = 0x01;

    /**
     * Two 1-byte messages flagged "waited" used to take the server's window from 256 KiB to
     * 1 MiB. Many rounds of them, flagged every one, now leave it as it was; so do messages just
     * short of 8 KiB, the least a window's worth of Sends must carry on average.
     */
    @Test
    void tinyMessagesFlaggedWaitedDoNotGrowTheWindow() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open()) {
            IwarpConnection client = hostile(pair);
            IwarpConnection server = pair.serverVerbs();
            InputStream in = pair.accepted().getInputStream();
            for (int round = 0; round < 20; round++) {
                for (int i = 0; i < 3; i++) {  // three of the four buffers: the fourth stays free
                    send(client, WAITED, new byte[] {(byte) i});
                }
                assertArrayEquals(new byte[] {0, 1, 2}, in.readNBytes(3));
                assertEquals(WINDOW, server.statistics().streamWindow(), "round " + round);
            }
            byte[] almost = new byte[8 * 1024 - 8];
            for (int round = 0; round < 5; round++) {
                for (int i = 0; i < 3; i++) {
                    send(client, WAITED, almost);
                }
                assertEquals(3 * almost.length, in.readNBytes(3 * almost.length).length);
            }
            send(client, 0, new byte[] {'.'});  // growth is decided before a later message is read
            assertEquals('.', in.read());
            assertEquals(WINDOW, server.statistics().streamWindow());
        }
    }

    /**
     * The same peer with full messages did fill the window: then its flag counts, the window
     * doubles at each flagged message, and stops at its maximum however often the peer flags.
     */
    @Test
    void fullMessagesFlaggedWaitedGrowTheWindowUpToItsMaximumOnly() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open()) {
            IwarpConnection client = hostile(pair);
            IwarpConnection server = pair.serverVerbs();
            InputStream in = pair.accepted().getInputStream();
            byte[] payload = new byte[FULL];
            int window = WINDOW;
            for (int round = 0; round < 12; round++) {
                int buffers = window / (64 * 1024);
                for (int i = 0; i < buffers - 1; i++) {  // fills all but one buffer, the last one flagged
                    Arrays.fill(payload, (byte) i);
                    send(client, i == buffers - 2 ? WAITED : 0, payload);
                }
                for (int i = 0; i < buffers - 1; i++) {
                    byte[] got = in.readNBytes(FULL);
                    assertEquals(FULL, got.length);
                    assertEquals((byte) i, got[FULL - 1]);
                }
                send(client, 0, new byte[] {'.'});
                assertEquals('.', in.read());
                int now = server.statistics().streamWindow();
                assertTrue(now == Math.min(2 * window, MAX_WINDOW), "round " + round + ": " + window + " -> " + now);
                window = now;
            }
            assertEquals(MAX_WINDOW, window);
        }
    }

    /**
     * A writer behind a BufferedOutputStream sends 8 KiB at a time: that fills the window enough.
     * Here three such Sends take three of the four buffers, the reader reads them, and the next
     * one says its writer waited (as a real writer's would: it keeps its last credit).
     */
    @Test
    void eightKibMessagesFlaggedWaitedGrowTheWindow() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open()) {
            IwarpConnection client = hostile(pair);
            IwarpConnection server = pair.serverVerbs();
            InputStream in = pair.accepted().getInputStream();
            byte[] payload = new byte[8 * 1024];
            for (int i = 0; i < 3; i++) {
                send(client, 0, payload);
            }
            assertEquals(3 * payload.length, in.readNBytes(3 * payload.length).length);
            send(client, WAITED, payload);
            assertEquals(payload.length, in.readNBytes(payload.length).length);
            send(client, 0, new byte[] {'.'});
            assertEquals('.', in.read());
            assertEquals(2 * WINDOW, server.statistics().streamWindow());
        }
    }

    /** The client's stream no longer owns its Sends: raw ones may be posted. */
    private static IwarpConnection hostile(IwarpSocketPair pair) throws Exception {
        IwarpConnection client = pair.clientVerbs();
        ((QueuePairVerbs) client).setStreamsOwnSendsAndReceives(false);
        return client;
    }

    /** One raw stream DATA message: the 4-octet header (type, flags, no credits) and the payload. */
    private static void send(IwarpConnection client, int flags, byte[] payload) throws Exception {
        ByteBuffer message = ByteBuffer.allocateDirect(4 + payload.length);
        message.put((byte) DATA).put((byte) flags).putShort((short) 0).put(payload).flip();
        MemoryRegion region = client.register(message, Set.of());
        client.post(new SendRequest().gather(region.slice(0, message.capacity())));
    }
}
