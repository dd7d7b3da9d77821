package io.extsock.core.verbs;

import io.extsock.core.rdmap.RdmapOpcode;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpStatistics;
import io.extsock.verbs.MessageType;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One connection's counts, for {@link io.extsock.verbs.IwarpConnection#statistics()} and the
 * periodic JFR event, with the names of its two ends.
 *
 * <p>Cheap enough for the hot paths: no allocation, no lock. Each count has one writer (the
 * transmit side's counts the holder of the transmit lock, the receive side's the holder of the
 * receive lock), which adds with a plain read and an ordered write; only {@link #error()}, which
 * several threads may count, adds atomically. Readers see each count on its own.
 */
public final class ConnectionCounters {

    private static final int TYPES = MessageType.values().length;
    private static final int MESSAGES_SENT = 0;
    private static final int MESSAGES_RECEIVED = TYPES;
    private static final int PAYLOAD_SENT = 2 * TYPES;
    private static final int PAYLOAD_RECEIVED = 3 * TYPES;
    private static final int BYTES_SENT = 4 * TYPES;
    private static final int BYTES_RECEIVED = BYTES_SENT + 1;
    private static final int ERRORS = BYTES_RECEIVED + 1;
    private static final int SOCKET_WRITES = ERRORS + 1;
    private static final int SOCKET_READS = SOCKET_WRITES + 1;
    private static final int SPINS = SOCKET_READS + 1;
    private static final int SPINS_FOUND = SPINS + 1;
    private static final int SLOTS = SPINS_FOUND + 1;

    /** MessageType of each RDMAP opcode, by wire value; null for those not counted. */
    private static final MessageType[] TYPE_OF_OPCODE = new MessageType[16];

    static {
        for (RdmapOpcode opcode : RdmapOpcode.values()) {
            MessageType type = opcode.isSend() ? MessageType.SEND : switch (opcode) {
                case RDMA_WRITE -> MessageType.RDMA_WRITE;
                case RDMA_READ_REQUEST -> MessageType.RDMA_READ_REQUEST;
                case RDMA_READ_RESPONSE -> MessageType.RDMA_READ_RESPONSE;
                case TERMINATE -> MessageType.TERMINATE;
                default -> null;
            };
            TYPE_OF_OPCODE[opcode.wireValue()] = type;
        }
    }

    private final AtomicLongArray counts = new AtomicLongArray(SLOTS);
    private final String peer;
    private final String local;
    private volatile int streamWindow;
    private volatile boolean closed;

    /**
     * @param peer  the peer's address, as it should appear in events and logs
     * @param local the local address, likewise
     */
    public ConnectionCounters(String peer, String local) {
        this.peer = peer;
        this.local = local;
    }

    /** For queue pairs not on a socket (tests): "unknown" ends. */
    public static ConnectionCounters unnamed() {
        return new ConnectionCounters("unknown", "unknown");
    }

    public String peer() {
        return peer;
    }

    public String local() {
        return local;
    }

    /** The message type an opcode counts as, or null for opcodes not counted (RFC 7306's). */
    public static MessageType typeOf(RdmapOpcode opcode) {
        return TYPE_OF_OPCODE[opcode.wireValue()];
    }

    // ---- writers ------------------------------------------------------------------------

    /** A message started out, with this much payload (transmit side). */
    void messageSent(MessageType type, long payload) {
        add(MESSAGES_SENT + type.ordinal(), 1);
        add(PAYLOAD_SENT + type.ordinal(), payload);
    }

    /** Payload octets of a received segment (receive side). */
    void payloadReceived(MessageType type, long payload) {
        add(PAYLOAD_RECEIVED + type.ordinal(), payload);
    }

    /** A message arrived whole (receive side). */
    void messageReceived(MessageType type) {
        add(MESSAGES_RECEIVED + type.ordinal(), 1);
    }

    /** Octets handed to TCP (transmit side). */
    public void bytesSent(long octets) {
        add(BYTES_SENT, octets);
    }

    /** Octets read from TCP (receive side). */
    public void bytesReceived(long octets) {
        add(BYTES_RECEIVED, octets);
    }

    /** A write to the socket was made, a system call (transmit side). */
    public void socketWrite() {
        add(SOCKET_WRITES, 1);
    }

    /** A read from the socket was made, a system call, whether or not it found octets (receive side). */
    public void socketRead() {
        add(SOCKET_READS, 1);
    }

    /**
     * A waiting thread polled the socket before it would block (receive side).
     *
     * @param found whether the poll found input, or what the wait was for, so the thread did not block
     */
    public void spun(boolean found) {
        add(SPINS, 1);
        if (found) {
            add(SPINS_FOUND, 1);
        }
    }

    /**
     * A work request completed (any thread): an error unless SUCCESS or FLUSHED (what a close
     * does to the requests outstanding is no error of theirs).
     */
    public void completed(CompletionStatus status) {
        if (status != CompletionStatus.SUCCESS && status != CompletionStatus.FLUSHED) {
            counts.getAndIncrement(ERRORS);
        }
    }

    /** The socket stream's receive window now, in octets. */
    public void streamWindow(int octets) {
        streamWindow = octets;
    }

    private void add(int slot, long amount) {
        counts.lazySet(slot, counts.get(slot) + amount);  // single writer: see the class comment
    }

    /** The connection closed (its socket too), and its last counts went to JFR. */
    public void markClosed() {
        closed = true;
    }

    // ---- readers ------------------------------------------------------------------------

    public boolean isClosed() {
        return closed;
    }

    public long messagesSent(MessageType type) {
        return counts.get(MESSAGES_SENT + type.ordinal());
    }

    public long messagesReceived(MessageType type) {
        return counts.get(MESSAGES_RECEIVED + type.ordinal());
    }

    public long payloadSent(MessageType type) {
        return counts.get(PAYLOAD_SENT + type.ordinal());
    }

    public long payloadReceived(MessageType type) {
        return counts.get(PAYLOAD_RECEIVED + type.ordinal());
    }

    public long bytesSent() {
        return counts.get(BYTES_SENT);
    }

    public long bytesReceived() {
        return counts.get(BYTES_RECEIVED);
    }

    public long errors() {
        return counts.get(ERRORS);
    }

    public long socketWrites() {
        return counts.get(SOCKET_WRITES);
    }

    public long socketReads() {
        return counts.get(SOCKET_READS);
    }

    public long spins() {
        return counts.get(SPINS);
    }

    public long spinsFound() {
        return counts.get(SPINS_FOUND);
    }

    public int streamWindow() {
        return streamWindow;
    }

    /** A snapshot for the public API. */
    public IwarpStatistics snapshot() {
        Map<MessageType, Long> sent = new EnumMap<>(MessageType.class);
        Map<MessageType, Long> received = new EnumMap<>(MessageType.class);
        Map<MessageType, Long> payloadSent = new EnumMap<>(MessageType.class);
        Map<MessageType, Long> payloadReceived = new EnumMap<>(MessageType.class);
        for (MessageType type : MessageType.values()) {
            sent.put(type, messagesSent(type));
            received.put(type, messagesReceived(type));
            payloadSent.put(type, payloadSent(type));
            payloadReceived.put(type, payloadReceived(type));
        }
        return new IwarpStatistics(bytesSent(), bytesReceived(), sent, received, payloadSent, payloadReceived,
                errors(), streamWindow(), socketWrites(), socketReads(), spins(), spinsFound());
    }
}
