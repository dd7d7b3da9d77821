package io.extsock.core.stream;

import io.extsock.core.memory.MemoryLease;
import io.extsock.core.verbs.InlineWait;
import io.extsock.core.verbs.QueuePair;
import io.extsock.core.verbs.QueuePairClosedException;
import io.extsock.spi.SocketTransport;
import java.io.IOException;

/**
 * An IWARP_MODE socket's byte stream, carried by RDMAP Sends between two extsock ends.
 *
 * <p>The mapping: each write becomes Sends of at most the peer's stream buffer size (64 KiB by
 * default) with a 4-byte header; each end posts stream receive buffers (4 to start with,
 * announced in MPA private data, growing to 16 while the peer writes faster than it can return
 * credits: {@link StreamInput}) and returns them as credits as its application reads;
 * {@code shutdownOutput} sends a FIN message; closing the socket closes TCP, which the peer reads
 * as end of stream, as with TCP.
 */
public final class IwarpStream implements SocketTransport {

    /**
     * Stream receive buffers each end posts at first, at most, and their size. At least 4 at
     * first: DATA leaves one credit for credit messages ({@code PeerWindow.RESERVE}) and
     * credits go back in batches of half the window, which with fewer would be one buffer. At
     * most 16 (1 MiB): a larger window gains nothing in the paired echo benchmark ({@code
     * StreamEchoOverhead}), and an echo whose client makes and checks every byte loses by it
     * (with 4 MiB in flight the copies no longer find the data in the cache).
     */
    public static final int RECEIVE_BUFFERS = 4;
    public static final int MAX_RECEIVE_BUFFERS = 16;
    /**
     * Stream octets one receive buffer holds: 64 KiB, behind the stream header. A 64 KiB write,
     * what a file copy or a bulk writer makes, then goes as one Send, not as a full one and one
     * of 4 octets that costs a credit, a receive and an FPDU of its own.
     */
    public static final int BUFFER_DATA = 64 * 1024;
    public static final int BUFFER_SIZE = BUFFER_DATA + StreamHeader.LENGTH;
    /**
     * The most stream receive buffers a peer can have posted: what a receive queue holds. A
     * peer that announces or returns more breaks the stream protocol.
     */
    public static final int MAX_PEER_RECEIVE_BUFFERS = QueuePair.RECEIVE_QUEUE_DEPTH;

    private final StreamInput input;
    private final StreamOutput output;
    private final Runnable closeConnection;

    private IwarpStream(StreamInput input, StreamOutput output, Runnable closeConnection) {
        this.input = input;
        this.output = output;
        this.closeConnection = closeConnection;
    }

    /**
     * Sets up the stream on a queue pair that has not started yet: posts the receive buffers so
     * that the peer's first Send finds one.
     *
     * @param waiting the engine's wait, through which blocked reads and writes make progress
     * @param prefix bytes the peer wrote before the switch, to be read first
     * @param memory the connection's lease, for the receive buffers (it gives them back when closed)
     */
    public static IwarpStream start(QueuePair queuePair, InlineWait waiting, int peerReceiveBuffers,
                                    int peerBufferSize, byte[] prefix, MemoryLease memory, Runnable closeConnection)
            throws QueuePairClosedException {
        StreamOutput output = new StreamOutput(queuePair, waiting, peerReceiveBuffers, peerBufferSize, closeConnection);
        StreamInput input = new StreamInput(queuePair, waiting, RECEIVE_BUFFERS, MAX_RECEIVE_BUFFERS, BUFFER_SIZE,
                prefix, output, memory);
        output.connect(input);
        input.postAll();
        return new IwarpStream(input, output, closeConnection);
    }

    /** Stream receive buffers this end has posted now: its window, which grows with the peer's writes. */
    public int receiveWindowBuffers() {
        return input.windowBuffers();
    }

    /** Credits the writing end holds: receive buffers of the peer's it may fill. */
    int writerCredits() {
        return output.creditsNow();
    }

    /** Credits the writing end received from the peer since the start. */
    long writerCreditsReceived() {
        return output.creditsReceived();
    }

    /** Credits the reading end gave the peer in its Sends since the start. */
    long readerCreditsSent() {
        return input.creditsSent();
    }

    /** Credits the reading end decided on that go to the peer without another read ({@link OwedCredits#onTheirWay}). */
    int readerCreditsOnTheirWay() {
        return input.creditsOnTheirWay();
    }

    /** Octets of small writes waiting for the peer's window ({@link SmallWriteBatch}). */
    int batchedOctets() {
        return output.batchedOctets();
    }

    @Override
    public int read(byte[] b, int off, int len, int timeoutMillis) throws IOException {
        return input.read(b, off, len, timeoutMillis);
    }

    @Override
    public int available() throws IOException {
        return input.available();
    }

    /** A read that returns at once: one thread reads a channel at a time, so what is there stays there. */
    @Override
    public int readNow(byte[] b, int off, int len) throws IOException {
        if (len == 0 || !readable()) {
            return 0;
        }
        return input.read(b, off, len, 0);
    }

    /** A write of what the peer takes now: one thread writes a channel at a time, so the room stays. */
    @Override
    public int writeNow(byte[] b, int off, int len) throws IOException {
        int now = Math.min(len, output.writableOctets());
        if (now == 0) {
            return 0;
        }
        output.write(b, off, now);
        return now;
    }

    /** Whether a read returns at once: bytes are there, or the end of the stream, or an error. */
    public boolean readable() {
        return input.readableOrEnded();
    }

    /** Whether a write of one byte returns without waiting for the peer (or fails at once). */
    public boolean writable() {
        return output.writableOctets() > 0;
    }

    /**
     * How many octets a write takes now without waiting for the peer: what a non-blocking
     * channel writes at most (a write that would fail at once counts as taking any length).
     */
    public int writableOctets() {
        return output.writableOctets();
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        output.write(b, off, len);
    }

    @Override
    public void shutdownInput() {
        input.shutdown();
    }

    @Override
    public void shutdownOutput() throws IOException {
        output.shutdown();
    }

    @Override
    public void close() {
        output.sendBatchBeforeClose();
        input.close();
        output.close();
        closeConnection.run();
    }

    /**
     * The connection ended: because the peer closed TCP (end of stream), reset it, or otherwise.
     * The stream then answers as a TCP socket's would in the same case (see {@link StreamOutput}
     * and {@link StreamInput}).
     */
    public void connectionEnded(boolean peerClosed, boolean reset, String reason) {
        if (peerClosed) {
            input.peerClosed();
        }
        if (reset) {
            input.peerReset();
        }
        if (!peerClosed && !reset) {
            input.ended(reason);
        }
        output.ended(peerClosed, reset, reason);
    }
}
