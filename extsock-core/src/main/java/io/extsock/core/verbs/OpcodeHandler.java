package io.extsock.core.verbs;

import io.extsock.core.rdmap.RdmapSegmentHeader;
import io.extsock.core.terminate.ProtocolViolationException;
import java.nio.ByteBuffer;

/**
 * What the receive side does with the segments of one RDMAP opcode (or family: the four
 * Sends share one). {@link ReceiveSide} keeps one table of them, indexed by opcode, and calls
 * each segment's handler after DDP's checks passed; the handler holds that opcode's rules and
 * state. All calls come from the holder of the connection's receive lock.
 *
 * <p>A peer's broken rule is a {@link ProtocolViolationException}. Anything unchecked a handler
 * throws is a bug of ours: the receive side turns it into a Terminate, RDMAP local catastrophic
 * error, and ends the connection; it never reaches the engine's receive loop.
 */
interface OpcodeHandler {

    /**
     * A segment's headers passed DDP's checks: make this opcode's own checks and say where its
     * payload goes.
     *
     * @return the buffer for exactly the segment's payload, or null for none
     * @throws ProtocolViolationException to refuse the segment (the connection then terminates)
     */
    ByteBuffer segmentStarted(RdmapSegmentHeader header) throws ProtocolViolationException;

    /** The segment's payload is placed and its CRC matched (every segment, last or not). */
    default void segmentPlaced(RdmapSegmentHeader header) {
    }

    /** The segment was its message's last: the message is complete. */
    void messageComplete(RdmapSegmentHeader header) throws ProtocolViolationException;
}
