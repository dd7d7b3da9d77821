package io.extsock.core.mpa;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The FPDU CRC of RFC 5044 section 4: CRC32c over the length field, ULPDU, pad and the
 * markers inside the FPDU, sent as the little-endian octets of the usual CRC32c value (the
 * iSCSI convention, RFC 3720 appendix B; big-endian gets a Terminate from siw).
 *
 * <p>Reads buffers at absolute offsets and leaves their positions alone, allocating nothing
 * (read-only heap buffers go through a small reused array, as the JDK would allocate one).
 */
final class FpduCrc {

    private final CRC32C crc = new CRC32C();
    private final byte[] bounce = new byte[256];

    void reset() {
        crc.reset();
    }

    void update(int octet) {
        crc.update(octet);
    }

    /** Folds in {@code length} octets of the buffer from absolute index {@code offset}. */
    void update(ByteBuffer buffer, int offset, int length) {
        if (length <= 0) {
            return;
        }
        if (buffer.hasArray()) {
            crc.update(buffer.array(), buffer.arrayOffset() + offset, length);
        } else if (buffer.isDirect()) {
            int position = buffer.position();
            int limit = buffer.limit();
            buffer.limit(offset + length);
            buffer.position(offset);
            crc.update(buffer);
            buffer.limit(limit);
            buffer.position(position);
        } else {
            for (int done = 0; done < length; ) {
                int count = Math.min(bounce.length, length - done);
                buffer.get(offset + done, bounce, 0, count);
                crc.update(bounce, 0, count);
                done += count;
            }
        }
    }

    /** The CRC32c value so far, as {@code CRC32C.getValue()} gives it. */
    int value() {
        return (int) crc.getValue();
    }

    /** The value as its four wire octets read little-endian, back into a CRC32c value. */
    static int fromWireOctets(int b0, int b1, int b2, int b3) {
        return b0 | b1 << 8 | b2 << 16 | b3 << 24;
    }
}
