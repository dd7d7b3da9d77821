package io.extsock.verbs;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * What one IWARP_MODE connection has moved so far: a snapshot, taken by {@link
 * IwarpConnection#statistics()}. Counts only grow; each is read on its own, so a snapshot taken
 * while traffic flows may be a few messages behind on some counts and not others.
 *
 * <p>Every RDMAP message counts, the engine's own included: the zero-length message that
 * starts a peer-to-peer connection (RFC 6581's RTR: a Write, Read Request or Send of no
 * octets), the Sends and credit messages that carry the socket's stream, Terminates.
 *
 * @param bytesSent        octets handed to TCP since the switch: MPA framing, markers and CRCs
 *                         included, the MPA Request or Reply excluded
 * @param bytesReceived    octets read from TCP since the switch, counted as the previous
 * @param messagesSent     RDMAP messages sent, by type (every type present, 0 if none)
 * @param messagesReceived RDMAP messages received whole, by type (every type present)
 * @param payloadSent      octets of payload sent, by type: the data of Sends and RDMA Writes,
 *                         Read Responses; 0 for Read Requests and Terminates
 * @param payloadReceived  octets of payload received, by type, counted as the previous
 * @param errors           work requests of this connection that completed with an error: a
 *                         status other than {@link CompletionStatus#SUCCESS} and {@link
 *                         CompletionStatus#FLUSHED} (what a connection's end does to the requests
 *                         still outstanding), those of the socket's stream included
 * @param streamWindow     stream octets the receive buffers this side has posted for the peer
 *                         hold (its stream window, which grows with bulk writes; stream headers
 *                         not counted), 0 when the socket's
 *                         stream does not run over this connection
 * @param socketWrites     writes to the socket (system calls) that handed {@code bytesSent} to
 *                         TCP: the messages of a posting list, and the responses to Read
 *                         Requests that arrive together, share one gathering write
 * @param socketReads      reads from the socket (system calls) since the switch, those that
 *                         found nothing included
 * @param spins            waits on this connection (a stream read, a completion awaited) in
 *                         which the waiting thread polled the socket a while before it would
 *                         block: a thread's wake-up costs more than a small message's round trip
 *                         on many machines. Adaptive: a connection whose polls find nothing soon
 *                         stops (see docs/guide.md, "Threads and waiting")
 * @param spinsFound       of those, the waits whose poll found input, or what the wait was for,
 *                         so that the thread did not block
 */
public record IwarpStatistics(long bytesSent, long bytesReceived, Map<MessageType, Long> messagesSent,
                              Map<MessageType, Long> messagesReceived, Map<MessageType, Long> payloadSent,
                              Map<MessageType, Long> payloadReceived, long errors, int streamWindow,
                              long socketWrites, long socketReads, long spins, long spinsFound) {

    /**
     * Makes immutable copies of the maps; a type missing from one counts 0.
     *
     * @param bytesSent        octets handed to TCP since the switch
     * @param bytesReceived    octets read from TCP since the switch
     * @param messagesSent     RDMAP messages sent, by type
     * @param messagesReceived RDMAP messages received whole, by type
     * @param payloadSent      octets of payload sent, by type
     * @param payloadReceived  octets of payload received, by type
     * @param errors           work requests that completed with an error other than FLUSHED
     * @param streamWindow     stream octets the receive buffers posted for the peer hold
     * @param socketWrites     writes to the socket (system calls)
     * @param socketReads      reads from the socket (system calls)
     * @param spins            waits in which the waiting thread polled the socket before blocking
     * @param spinsFound       of those, the waits whose poll found input
     * @throws NullPointerException if a map is null
     */
    public IwarpStatistics {
        messagesSent = complete(messagesSent);
        messagesReceived = complete(messagesReceived);
        payloadSent = complete(payloadSent);
        payloadReceived = complete(payloadReceived);
    }

    /**
     * Messages sent of one type.
     *
     * @param type the RDMAP message type
     * @return how many this side sent; 0 for a type it never sent
     */
    public long messagesSent(MessageType type) {
        return messagesSent.get(type);
    }

    /**
     * Messages received of one type.
     *
     * @param type the RDMAP message type
     * @return how many this side received; 0 for a type it never received
     */
    public long messagesReceived(MessageType type) {
        return messagesReceived.get(type);
    }

    private static Map<MessageType, Long> complete(Map<MessageType, Long> counts) {
        Objects.requireNonNull(counts, "counts");
        EnumMap<MessageType, Long> all = new EnumMap<>(MessageType.class);
        for (MessageType type : MessageType.values()) {
            all.put(type, counts.getOrDefault(type, 0L));
        }
        return Collections.unmodifiableMap(all);  // in type order
    }
}
