package io.extsock.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A closed connection's TCP, lingering: our FIN goes out, whatever arrives meanwhile is dropped
 * without a reset, and the descriptor closes when the peer closes, or once it has been quiet.
 * On plain channel pairs, the peer playing the part of an iWARP engine that still sends.
 */
@Timeout(60)
class LingeringCloseTest {

    /** Longer than any test here: a channel closed before it was closed by the peer's end of stream. */
    private static final long NEVER_QUIET = 600_000;
    /**
     * The two ends' TCP buffers, set small (the kernel doubles them): what the peer sends after
     * our close cannot all sit in them, so a peer that got it all out proves we read and dropped it.
     */
    private static final int BUFFER = 64 * 1024;

    private ProgressThread thread;
    private ServerSocketChannel listener;
    private SocketChannel ours;
    private SocketChannel peer;

    @BeforeEach
    void connect() throws Exception {
        thread = new ProgressThread("lingering-close-test");
        listener = ServerSocketChannel.open();
        listener.setOption(StandardSocketOptions.SO_RCVBUF, BUFFER);  // the accepted end's, before it connects
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        peer = SocketChannel.open();
        peer.setOption(StandardSocketOptions.SO_SNDBUF, BUFFER);
        peer.connect(listener.getLocalAddress());
        ours = listener.accept();
        ours.configureBlocking(false);
    }

    @AfterEach
    void close() throws Exception {
        peer.close();
        ours.close();
        listener.close();
        thread.shutdown();
    }

    @Test
    void thePeerReadsOurBytesAndFinThenWhatItSendsIsDroppedWithoutAReset() throws Exception {
        ours.write(ByteBuffer.wrap("last".getBytes()));
        LingeringClose.begin(ours, thread, NEVER_QUIET, LingeringClose.MOST_AT_ONCE);
        ByteBuffer got = ByteBuffer.allocate(8);
        while (peer.read(got) != -1) {
            // the last bytes, then our FIN
        }
        assertEquals("last", new String(got.array(), 0, got.position()));
        // 4 MiB after our close, 16 times what the two ends' buffers hold: the peer's blocking
        // writes get it all out only because our lingering close reads and drops it, and a
        // closed socket would have answered the first octets past its buffer with a reset.
        ByteBuffer credits = ByteBuffer.allocate(64 * 1024);
        for (int i = 0; i < 64; i++) {
            peer.write(credits.clear());
        }
        assertTrue(64L * credits.capacity() > 16L * (peer.getOption(StandardSocketOptions.SO_SNDBUF)
                + ours.getOption(StandardSocketOptions.SO_RCVBUF)), "more than the buffers hold");
        assertTrue(ours.isOpen(), "lingering while the peer is open");
        peer.close();
        awaitClosed(ours);
    }

    @Test
    void aPeerThatStaysOpenAndQuietIsLeftAfterTheQuietTime() throws Exception {
        LingeringClose.begin(ours, thread, 50, LingeringClose.MOST_AT_ONCE);
        assertEquals(-1, peer.read(ByteBuffer.allocate(1)), "our FIN");
        awaitClosed(ours);
    }

    @Test
    void aPeerThatClosedAlreadyEndsItAtOnce() throws Exception {
        peer.close();
        LingeringClose.begin(ours, thread, NEVER_QUIET, LingeringClose.MOST_AT_ONCE);
        awaitClosed(ours);
    }

    @Test
    void everyLingeringCloseIsCountedUntilItEnds() throws Exception {
        int before = LingeringClose.lingering();
        LingeringClose.begin(ours, thread, NEVER_QUIET, LingeringClose.MOST_AT_ONCE);
        assertEquals(before + 1, LingeringClose.lingering());
        peer.close();
        awaitClosed(ours);
        assertEquals(before, LingeringClose.lingering());
        assertFalse(ours.isOpen());
    }

    /** Past the most that may linger at once, a close is immediate: our FIN, and the descriptor closed. */
    @Test
    void pastTheMostAtOnceACloseIsImmediate() throws Exception {
        LingeringClose.begin(ours, thread, NEVER_QUIET, LingeringClose.lingering());
        assertFalse(ours.isOpen(), "closed at once");
        assertEquals(-1, peer.read(ByteBuffer.allocate(1)), "our FIN");
    }

    private static void awaitClosed(SocketChannel channel) throws InterruptedException {
        while (channel.isOpen()) {
            Thread.sleep(5);  // a polling interval; the class's timeout bounds it
        }
    }
}
