package io.extsock.examples.rping;

import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WorkOpcode;
import io.extsock.verbs.WriteRequest;
import java.io.IOException;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One end of an rping connection: its registered buffers and the messages rping exchanges.
 * Every control message is rping's {@code struct rping_rdma_info}, 16 bytes: buffer address
 * (here the tagged offset), rkey (the STag) and size, big-endian: {@link RemoteBuffer}'s form.
 *
 * <p>One Receive is posted at a time and posted again as soon as it completes, before anything
 * is sent: the peer's next message can only follow our reply, so it always finds it.
 */
final class RpingPeer {

    /** rping waits for its peer without end; a peer silent this long is gone. */
    private static final long STALL_SECONDS = 60;

    private static final Set<Access> REMOTE_BOTH = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ,
            Access.REMOTE_WRITE);

    private final IwarpConnection verbs;
    private final RpingOptions options;
    private final MemoryRegion receiveBuffer;
    private final MemoryRegion sendBuffer;
    /** The server's Read sink and Write source; the client's sink, where the server writes back. */
    private final MemoryRegion rdmaBuffer;
    /** The client's Read source: the ping data. */
    private final MemoryRegion startBuffer;
    private final ReceiveRequest receive;
    private final SendRequest send;
    /** Completions that came while another kind was awaited (a Receive before our Send's completion). */
    private final ArrayDeque<WorkCompletion> early = new ArrayDeque<>();
    private int sendsOutstanding;

    private RpingPeer(IwarpConnection verbs, RpingOptions options) throws IOException {
        this.verbs = verbs;
        this.options = options;
        receiveBuffer = verbs.register(ByteBuffer.allocateDirect(RemoteBuffer.ENCODED_LENGTH), EnumSet.of(Access.LOCAL_WRITE));
        sendBuffer = verbs.register(ByteBuffer.allocateDirect(RemoteBuffer.ENCODED_LENGTH), EnumSet.noneOf(Access.class));
        rdmaBuffer = verbs.register(ByteBuffer.allocateDirect(options.size()), REMOTE_BOTH);
        startBuffer = verbs.register(ByteBuffer.allocateDirect(options.size()), REMOTE_BOTH);
        receive = new ReceiveRequest().scatter(receiveBuffer.slice(0, RemoteBuffer.ENCODED_LENGTH));
        send = new SendRequest().gather(sendBuffer.slice(0, RemoteBuffer.ENCODED_LENGTH));
    }

    /** Registers the buffers and posts the first Receive: before the peer can send anything. */
    static RpingPeer prepare(IwarpConnection verbs, RpingOptions options) throws IOException {
        RpingPeer peer = new RpingPeer(verbs, options);
        verbs.post(peer.receive);
        return peer;
    }

    ByteBuffer startData() {
        return startBuffer.buffer();
    }

    ByteBuffer rdmaData() {
        return rdmaBuffer.buffer();
    }

    /** Client: tells the server where to RDMA-Read the ping data from. */
    void advertiseSource() throws IOException, InterruptedException {
        sendInfo(startBuffer.remote(0, options.size()));
    }

    /** Client: tells the server where to RDMA-Write the ping data back to. */
    void advertiseSink() throws IOException, InterruptedException {
        sendInfo(rdmaBuffer.remote(0, options.size()));
    }

    /** Server: the "go ahead" after each Read and Write (rping sends its 16-byte buffer as it is). */
    void goAhead() throws IOException, InterruptedException {
        sendInfo(new RemoteBuffer(0, 0, 0));
    }

    private void sendInfo(RemoteBuffer info) throws IOException, InterruptedException {
        while (sendsOutstanding > 0) {
            await(WorkOpcode.SEND);  // the send buffer is ours again
        }
        info.writeTo(sendBuffer.buffer().clear());
        options.debug("RDMA addr %x rkey %x len %d", info.offset(), info.stag(), info.length());
        verbs.post(send);
        sendsOutstanding++;
    }

    /**
     * The peer's next 16-byte message (a buffer advertisement, or a "go ahead"), after which the
     * Receive is posted again at once.
     *
     * @throws PeerDisconnected if the connection ended in between messages
     */
    RemoteBuffer receiveInfo() throws IOException, InterruptedException {
        WorkCompletion received = await(WorkOpcode.RECEIVE);
        if (received.byteLength() != RemoteBuffer.ENCODED_LENGTH) {
            throw new SocketException("Received bogus data, size " + received.byteLength()
                    + " (rping's messages are " + RemoteBuffer.ENCODED_LENGTH + " bytes)");
        }
        RemoteBuffer info = RemoteBuffer.readFrom(receiveBuffer.buffer().clear());
        verbs.post(receive);
        options.debug("Received rkey %x addr %x len %d from peer", info.stag(), info.offset(), info.length());
        return info;
    }

    /** Server: RDMA-Reads the client's ping data into our buffer. */
    void read(RemoteBuffer source) throws IOException, InterruptedException {
        verbs.post(new ReadRequest().source(source).sink(rdmaBuffer.slice(0, (int) source.length())));
        await(WorkOpcode.RDMA_READ);
    }

    /** Server: RDMA-Writes the first {@code length} bytes of our buffer into the client's sink. */
    void write(RemoteBuffer sink, int length) throws IOException, InterruptedException {
        verbs.post(new WriteRequest().gather(rdmaBuffer.slice(0, length)).target(sink.slice(0, length)));
        await(WorkOpcode.RDMA_WRITE);
    }

    /** Takes completions until one of {@code opcode}; Send completions on the way are counted. */
    private WorkCompletion await(WorkOpcode opcode) throws IOException, InterruptedException {
        for (Iterator<WorkCompletion> it = early.iterator(); it.hasNext(); ) {
            WorkCompletion completion = it.next();
            if (completion.opcode() == opcode) {
                it.remove();
                return completion;
            }
        }
        while (true) {
            WorkCompletion completion = verbs.completions().take(STALL_SECONDS, TimeUnit.SECONDS);
            if (completion == null) {
                throw new SocketException("the peer sent nothing for " + STALL_SECONDS + " s");
            }
            if (completion.status() == CompletionStatus.FLUSHED) {
                throw new PeerDisconnected(completion);
            }
            if (!completion.isSuccess()) {
                throw new SocketException(completion.opcode() + " failed: " + completion.status()
                        + (completion.detail() != null ? ": " + completion.detail() : ""));
            }
            if (completion.opcode() == WorkOpcode.SEND) {
                sendsOutstanding--;
            }
            if (completion.opcode() == opcode) {
                return completion;
            }
            if (completion.opcode() != WorkOpcode.SEND) {
                early.add(completion);
            }
        }
    }

    /**
     * The connection ended while we waited: the completion that says so was flushed. Its cause
     * tells which end ended it: the peer (it closed or reset the connection, or sent a Terminate)
     * or this side (it found the peer breaking a rule and sent a Terminate).
     */
    static final class PeerDisconnected extends SocketException {
        private final CompletionCause cause;

        PeerDisconnected(WorkCompletion flushed) {
            super(flushed.detail() != null ? flushed.detail() : "the connection ended");
            this.cause = flushed.cause();
        }

        /** The peer closed or reset the connection: between pings, how an rping client says goodbye. */
        boolean peerClosed() {
            return cause.origin() == CompletionCause.Origin.CONNECTION_LOST;
        }

        /** Who ended the connection, to be followed by when and {@link #getMessage() why}. */
        String who(String peer) {
            return switch (cause.origin()) {
                case TERMINATE_SENT -> "extsock ended the connection to " + peer + " with a Terminate";
                case TERMINATE_RECEIVED -> peer + " ended the connection with a Terminate";
                case CLOSED -> "the connection to " + peer + " was closed here";
                default -> peer + " disconnected";
            };
        }
    }
}
