package io.extsock.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.IwarpNegotiationException;
import io.extsock.core.fuzz.Fuzz;
import io.extsock.core.fuzz.Mutator;
import io.extsock.core.fuzz.Mutator.Field;
import io.extsock.core.stream.IwarpStream;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the stream protocol's announcement, the {@link ExtsockHello} at the start of the
 * peer's MPA private data (magic, receive buffers, buffer size): mutants of the hellos we send,
 * with the application's private data behind them. A hello is either not there (not an extsock
 * peer), or one the socket's stream can run on, or refused with an {@link
 * IwarpNegotiationException} (MALFORMED): never a hello that makes our writer loop, block for
 * ever or throw.
 */
@Tag("stress")
@Timeout(value = 30, unit = TimeUnit.MINUTES)  // per test: a hang fails; the long runs' largest surface takes minutes
class ExtsockHelloFuzzTest {

    private static final Field[] FIELDS = {new Field(4, 2), new Field(6, 4), new Field(4, 1), new Field(6, 1),
        new Field(9, 1), new Field(0, 1), new Field(3, 1)};

    @Test
    void hostileAnnouncements() {
        Fuzz.Stats stats = Fuzz.run("stream announcement (MPA private data)", Fuzz.inputs(20_000), random -> {
            byte[] application = new byte[random.nextInt(4) == 0 ? random.nextInt(0, 499) : random.nextInt(0, 8)];
            random.nextBytes(application);
            ExtsockHello ours = random.nextInt(4) == 0 ? ExtsockHello.NONE
                    : new ExtsockHello(IwarpStream.RECEIVE_BUFFERS, IwarpStream.BUFFER_SIZE);
            return Mutator.mutate(random, ours.encodeWith(application), FIELDS, null);
        }, (input, random) -> {
            byte[] application = ExtsockHello.applicationData(input);
            ExtsockHello hello = ExtsockHello.readFrom(input);
            if (hello == ExtsockHello.NONE) {
                assertArrayEquals(input, application);
                return;
            }
            assertArrayEquals(Arrays.copyOfRange(input, ExtsockHello.LENGTH, input.length), application);
            if (hello.streamsOn()) {
                // What StreamOutput needs: two credits for data (one kept for a credit update or
                // FIN), and room for at least one data octet behind the 4-octet header.
                assertTrue(hello.streamReceiveBuffers() >= 2, hello + ": a writer would wait for ever");
                assertTrue(hello.streamBufferSize() > 4, hello + ": a writer would send empty Sends for ever");
                assertTrue(hello.streamReceiveBuffers() <= IwarpStream.MAX_PEER_RECEIVE_BUFFERS,
                        hello + ": more buffers than a receive queue holds");
            }
        }, IwarpNegotiationException.class);
        assertTrue(stats.accepted > 0 && stats.rejected > 0, stats.toString());
    }

    // ---- regressions: what the fuzzer found -------------------------------------------------

    /** Buffer size 0: StreamOutput's payload per Send was -4, and a write threw IndexOutOfBoundsException. */
    @Test
    void bufferSizeZeroIsMalformed() {
        assertMalformed("58534b31 0004 00000000");
    }

    /** Buffer size 4: no room for data behind the header, and a write sent empty Sends for ever. */
    @Test
    void bufferSizeOfTheHeaderAloneIsMalformed() {
        assertMalformed("58534b31 0004 00000004");
    }

    /** A negative buffer size (the field is 32 bits): the same IndexOutOfBoundsException. */
    @Test
    void negativeBufferSizeIsMalformed() {
        assertMalformed("58534b31 0004 fffffff0 6170706c");
    }

    /** One receive buffer: data needs two credits, so the first write waited for ever. */
    @Test
    void oneReceiveBufferIsMalformed() {
        assertMalformed("58534b31 0001 00010000");
    }

    /** More receive buffers than a receive queue holds (513): no peer has them posted. */
    @Test
    void moreReceiveBuffersThanAQueueHoldsIsMalformed() {
        assertMalformed("58534b31 0201 00010000");
    }

    /** As many as a receive queue holds is still a window a peer can have. */
    @Test
    void aReceiveQueueOfBuffersIsAccepted() throws Exception {
        assertEquals(new ExtsockHello(512, 65536), ExtsockHello.readFrom(hex("58534b31 0200 00010000")));
    }

    @Test
    void zeroReceiveBuffersIsStreamsOff() throws Exception {
        ExtsockHello hello = ExtsockHello.readFrom(hex("58534b31 0000 00000000"));
        assertEquals(false, hello.streamsOn());
    }

    @Test
    void ourOwnHelloReadsBack() throws Exception {
        ExtsockHello ours = new ExtsockHello(IwarpStream.RECEIVE_BUFFERS, IwarpStream.BUFFER_SIZE);
        assertEquals(ours, ExtsockHello.readFrom(ours.encodeWith(new byte[] {1, 2})));
        assertSame(ExtsockHello.NONE, ExtsockHello.readFrom(hex("58534b")));
    }

    private static void assertMalformed(String hex) {
        IwarpNegotiationException e = org.junit.jupiter.api.Assertions.assertThrows(IwarpNegotiationException.class,
                () -> ExtsockHello.readFrom(hex(hex)));
        assertEquals(IwarpNegotiationException.Reason.MALFORMED, e.reason());
    }

    private static byte[] hex(String hex) {
        return java.util.HexFormat.of().parseHex(hex.replace(" ", ""));
    }
}
