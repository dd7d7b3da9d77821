package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.verbs.QueuePairVerbs;
import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.SendRequest;
import java.io.InputStream;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An IWARP_MODE socket's stream runs extsock's own small protocol over Sends (a 4-byte header:
 * type, reserved, credits). A peer that sends something else gets no bytes out of it: the
 * reader fails with an error that names the problem. The client here impersonates such a peer
 * by taking its Sends back from its own stream and posting raw ones.
 */
@Timeout(60)
class StreamProtocolViolationTest {

    @Test
    void aStreamMessageOfAnUnknownTypeFailsTheReader() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open()) {
            sendRaw(pair, new byte[] {9, 0, 0, 0, 'x'});
            InputStream in = pair.accepted().getInputStream();
            SocketException failure = assertThrows(SocketException.class, in::read);
            assertTrue(failure.getMessage().contains("unknown type 9"), failure.getMessage());
        }
    }

    @Test
    void aStreamMessageShorterThanItsHeaderFailsTheReader() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open()) {
            sendRaw(pair, new byte[] {1, 0});
            InputStream in = pair.accepted().getInputStream();
            SocketException failure = assertThrows(SocketException.class, in::read);
            assertTrue(failure.getMessage().contains("a stream message of 2 bytes"), failure.getMessage());
        }
    }

    private static void sendRaw(IwarpSocketPair pair, byte[] message) throws Exception {
        IwarpConnection client = pair.clientVerbs();
        ((QueuePairVerbs) client).setStreamsOwnSendsAndReceives(false);
        MemoryRegion region = client.register(ByteBuffer.allocateDirect(message.length).put(message).flip(), Set.of());
        client.post(new SendRequest().gather(region.slice(0, message.length)));
    }
}
