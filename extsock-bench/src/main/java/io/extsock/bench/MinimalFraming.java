package io.extsock.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The framing an untagged iWARP Send with CRCs carries, without an engine around it: the FPDU
 * of RFC 5044 section 4 (ULPDU length, ULPDU, pad to 4, CRC32c over all of it), whose ULPDU is
 * an 18-octet DDP/RDMAP untagged header (RFC 5041 section 4.3: control, invalidate STag, queue
 * number, message sequence number, message offset) and the payload. What the floor {@link
 * BulkFramingFloor} measures for each message: the writer fills a header, runs the CRC over
 * header and payload and writes header, payload and CRC in one gathering write (the payload by
 * reference, as a registered buffer); the reader checks each FPDU's CRC where it was read and
 * copies its payload to where it belongs.
 *
 * <p>Not a protocol implementation: markers, segmentation, tagged messages, completions and
 * every check but length and CRC are left out. Segmentation is not taken on loopback, whose path
 * takes FPDUs of nearly 64 KiB; on a 1500-octet path a 4 KiB Send would be three FPDUs. Nor is it
 * a proven minimum: it is the engine's way (a direct payload by reference in a gathering write;
 * each CRC checked in staging before the payload is placed) without the engine.
 */
final class MinimalFraming {

    /** The untagged DDP/RDMAP header (RFC 5041 section 4.3, RFC 5040 section 4.3). */
    static final int UNTAGGED_HEADER = 18;
    /** The ULPDU length field before it (RFC 5044 section 4.1). */
    static final int LENGTH_FIELD = 2;
    static final int CRC_FIELD = 4;
    /** The longest payload one FPDU carries: the 16-bit ULPDU length less the header. */
    static final int MAX_PAYLOAD = 0xFFFF - UNTAGGED_HEADER;

    private MinimalFraming() {
    }

    /** Octets of pad after a ULPDU of this length, so that the FPDU ends on a multiple of 4. */
    static int pad(int ulpduLength) {
        return (4 - (LENGTH_FIELD + ulpduLength) % 4) % 4;
    }

    /** Octets on the wire for one message with this payload. */
    static int fpduLength(int payload) {
        int ulpdu = UNTAGGED_HEADER + payload;
        return LENGTH_FIELD + ulpdu + pad(ulpdu) + CRC_FIELD;
    }

    /** Frames Sends of one payload buffer, one gathering write each. */
    static final class Writer {
        private final CRC32C crc = new CRC32C();
        private final ByteBuffer head = ByteBuffer.allocateDirect(LENGTH_FIELD + UNTAGGED_HEADER);
        private final ByteBuffer tail = ByteBuffer.allocateDirect(3 + CRC_FIELD);
        private final ByteBuffer[] gather = new ByteBuffer[3];
        private int messageSequence;

        /**
         * The next message's FPDU, ready for {@code channel.write(gather)}: its header, the
         * payload (the whole buffer, from 0 to its capacity) and pad with CRC.
         */
        ByteBuffer[] frame(ByteBuffer payload) {
            int length = payload.capacity();
            if (length > MAX_PAYLOAD) {
                throw new IllegalArgumentException("a payload of " + length + " octets exceeds one FPDU's "
                        + MAX_PAYLOAD);
            }
            int ulpdu = UNTAGGED_HEADER + length;
            head.clear();
            head.putShort((short) ulpdu);
            head.put((byte) 0x41).put((byte) 0x43);  // last segment, DDP version 1; RDMAP version 1, Send
            head.putInt(0).putInt(0);                 // no STag to invalidate; queue 0 (Sends)
            head.putInt(++messageSequence).putInt(0);  // MSN, message offset
            head.flip();
            crc.reset();
            crc.update(head);
            head.rewind();
            crc.update(payload.clear());
            payload.rewind();
            tail.clear();
            for (int i = pad(ulpdu); i > 0; i--) {
                tail.put((byte) 0);
                crc.update(0);
            }
            tail.putInt(Integer.reverseBytes((int) crc.getValue())).flip();  // little-endian, as siw and the engine
            gather[0] = head;
            gather[1] = payload;
            gather[2] = tail;
            return gather;
        }
    }

    /**
     * Takes FPDUs out of a staging buffer that reads fill: each complete one has its CRC checked
     * where it lies and its payload copied to the destination; an FPDU the read cut short stays
     * for the next read.
     */
    static final class Reader {
        private final CRC32C crc = new CRC32C();
        private final ByteBuffer staging;
        private final ByteBuffer destination;
        private long payloadOctets;

        /**
         * @param staging where reads put octets: from its position to its limit is room for the
         *     next read ({@link #room()})
         * @param destination where payloads go, each from its start; as large as the largest
         */
        Reader(ByteBuffer staging, ByteBuffer destination) {
            this.staging = staging.clear();
            this.destination = destination;
        }

        /** The buffer the next read fills, from its position. */
        ByteBuffer room() {
            return staging;
        }

        /**
         * Checks and places every complete FPDU read so far, then keeps what is left for the
         * next read.
         *
         * @throws IOException if an FPDU's CRC does not match, or its length cannot be
         */
        void consume() throws IOException {
            staging.flip();
            while (staging.remaining() >= LENGTH_FIELD) {
                int start = staging.position();
                int ulpdu = staging.getShort(start) & 0xFFFF;
                if (ulpdu < UNTAGGED_HEADER) {
                    throw new IOException("an FPDU announces a ULPDU of " + ulpdu + " octets, shorter than its header");
                }
                int covered = LENGTH_FIELD + ulpdu + pad(ulpdu);
                if (staging.remaining() < covered + CRC_FIELD) {
                    break;
                }
                int read = staging.limit();
                crc.reset();
                crc.update(staging.limit(start + covered));  // moves the position to the CRC field
                staging.limit(read);
                int sent = Integer.reverseBytes(staging.getInt(start + covered));
                if (sent != (int) crc.getValue()) {
                    throw new IOException("the FPDU at staging offset " + start + " fails its CRC");
                }
                int payload = ulpdu - UNTAGGED_HEADER;
                if (payload > destination.capacity()) {
                    throw new IOException("an FPDU carries " + payload + " payload octets, more than the "
                            + destination.capacity() + " of its destination");
                }
                destination.put(0, staging, start + LENGTH_FIELD + UNTAGGED_HEADER, payload);
                payloadOctets += payload;
                staging.position(start + covered + CRC_FIELD);
            }
            staging.compact();
        }

        /** Where payloads go: the last one placed is there from index 0. */
        ByteBuffer destination() {
            return destination;
        }

        /** Payload octets placed so far. */
        long payloadOctets() {
            return payloadOctets;
        }
    }
}
