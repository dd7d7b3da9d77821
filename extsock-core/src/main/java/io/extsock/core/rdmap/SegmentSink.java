package io.extsock.core.rdmap;

import io.extsock.core.terminate.ProtocolViolationException;
import java.nio.ByteBuffer;

/**
 * The layer above a {@link SegmentReader}: decides where each segment's payload goes and
 * hears when the segment is complete. It owns the stream state (STags, posted receives,
 * outstanding reads) and so makes the checks that need it.
 */
public interface SegmentSink {

    /**
     * A segment's headers arrived and passed the stateless checks; nothing of its payload is
     * placed yet. Every segment comes here, with or without payload, so that the checks that
     * need stream state (STags, MSNs, posted receives) run before anything is placed.
     *
     * @return the buffer the payload goes to, positioned where the first payload octet belongs
     *     with exactly {@code header.ulpPayloadLength()} octets remaining; or null for a
     *     segment without payload, or to drop the payload
     * @throws ProtocolViolationException to refuse the segment (invalid STag, no receive...)
     */
    ByteBuffer segmentStarted(RdmapSegmentHeader header) throws ProtocolViolationException;

    /**
     * Where a large untagged payload would go, by headers whose CRC has not been checked yet,
     * when that place is memory of the engine's own that nothing reads before the segment's
     * message completes (a stream's receive buffer, never the application's memory); null
     * otherwise. The reader may then read the payload from the socket straight there and check
     * the CRC over it in place, one copy fewer than through the hold. Should the CRC fail,
     * the connection ends and that memory is never delivered; should it match, {@link
     * #segmentStarted} still decides, and the payload is moved if it names another place.
     * Must change no state that {@link #segmentStarted} would not set the same way for the same
     * headers (a buffer's window may move): the headers may be garbled.
     *
     * @return a buffer with exactly {@code unverified.ulpPayloadLength()} octets remaining from
     *     its position, or null
     */
    default ByteBuffer speculativeDestination(RdmapSegmentHeader unverified) {
        return null;
    }

    /**
     * The segment ended and its CRC matched: its payload is placed. Until this call nothing of
     * the segment may be delivered.
     */
    void segmentComplete(RdmapSegmentHeader header) throws ProtocolViolationException;
}
