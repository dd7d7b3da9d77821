package io.extsock.core.stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedSocket;
import io.extsock.core.verbs.QueuePairVerbs;
import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.SendRequest;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Over real loopback sockets: a peer that breaks the stream protocol in any field of a stream
 * message ends the connection at once, and the reader's and the writer's errors name the field
 * and the value.
 * The hostile peer is an extsock client that takes its Sends back from its stream and posts
 * raw ones.
 */
@Timeout(60)
class HostileStreamPeerTest {

    @Test
    void undefinedFlagsOnDataEndTheConnection() throws Exception {
        assertConnectionEnds("a DATA message with flags 0x80 (only WAITED, 0x01, is defined)", "0180000078");
    }

    @Test
    void aDataMessageWithoutDataEndsTheConnection() throws Exception {
        assertConnectionEnds("a DATA message without data", "01000000");
    }

    @Test
    void aCreditMessageWithDataEndsTheConnection() throws Exception {
        assertConnectionEnds("a CREDIT message with 1 octets behind its header", "0200000078");
    }

    @Test
    void moreCreditsThanAReceiveQueueCanHaveEndTheConnection() throws Exception {
        // 600 credits returned: no peer has more than 512 buffers posted.
        assertConnectionEnds("it returned 600 stream credits on top of 4", "02000258");
    }

    @Test
    void dataAfterTheFinEndsTheConnection() throws Exception {
        assertConnectionEnds("a DATA message of 1 octets after the peer's FIN", "03000000", "0100000078");
    }

    /**
     * The client posts the hex messages, one Send each, in place of its stream's; the server's
     * reader (unless the peer's FIN came first) and writer fail naming the fault, and the
     * client's connection ends too (TCP closed).
     */
    private static void assertConnectionEnds(String named, String... messages) throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open()) {
            ExtendedSocket client = pair.client();
            ExtendedSocket accepted = pair.accepted();
            IwarpConnection verbs = client.iwarp();
            ((QueuePairVerbs) verbs).setStreamsOwnSendsAndReceives(false);
            for (String message : messages) {
                byte[] octets = HexFormat.of().parseHex(message);
                MemoryRegion region = verbs.register(ByteBuffer.allocateDirect(octets.length).put(octets)
                        .flip(), Set.of());
                verbs.post(new SendRequest().gather(region.slice(0, octets.length)));
            }
            String reason = "the peer broke extsock's stream protocol: " + named;
            InputStream in = accepted.getInputStream();
            if (messages[0].startsWith("03")) {
                // After the peer's FIN its stream is whole: the reader reads its end.
                assertTrue(in.read() < 0, "end of stream");
            } else {
                SocketException failure = assertThrows(SocketException.class, in::read);
                assertTrue(failure.getMessage().contains(reason), failure.getMessage());
            }
            SocketException writeFailure = awaitWriteFailure(accepted);
            assertTrue(writeFailure.getMessage().contains(reason), writeFailure.getMessage());
            assertClientSeesTheEnd(client);
            assertFalse(accepted.isClosed(), "the socket stays for its application to close");
        }
    }

    /**
     * Writes until a write fails: the end of stream a reader saw (the peer's FIN) may come before
     * the violation behind it has been read, and until then a write is still fine.
     */
    private static SocketException awaitWriteFailure(ExtendedSocket accepted) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            try {
                accepted.getOutputStream().write(1);
            } catch (SocketException failure) {
                return failure;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("writes still succeed 20 s after the peer broke the protocol");
    }

    /** The hostile client reads the end of its connection: end of stream, or a reset. */
    private static void assertClientSeesTheEnd(ExtendedSocket client) {
        try {
            InputStream in = client.getInputStream();
            while (in.read() >= 0) {
                // nothing was written to it; an end is what we wait for
            }
        } catch (IOException e) {
            // reset, or the stream failed with the connection: ended either way
        }
    }
}
