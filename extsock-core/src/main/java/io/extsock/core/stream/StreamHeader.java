package io.extsock.core.stream;

import java.nio.ByteBuffer;

/**
 * The header of every Send that carries an IWARP_MODE socket's stream (extsock's own protocol
 * between two extsock ends, over RDMAP Sends):
 *
 * <pre>
 * +--------+----------+--------------------+----------------------+
 * | type 8 | flags 8  | credits returned 16 | data (DATA only) ... |
 * +--------+----------+--------------------+----------------------+
 * </pre>
 *
 * Credits: every Send consumes one receive buffer the peer posted; "credits returned" tells
 * the peer how many buffers this side posted again since it last said so.
 *
 * <p>Flags: {@link #WAITED} on a DATA message says its writer had to wait for credits before
 * it, so the peer's window is what limits the stream (the peer may then post more buffers).
 */
final class StreamHeader {

    static final int LENGTH = 4;

    /** Stream bytes follow. */
    static final int DATA = 1;
    /** Nothing but returned credits. */
    static final int CREDIT = 2;
    /** The sender shut down its output: end of stream after what it sent before. */
    static final int FIN = 3;

    /** Flag: the writer waited for credits before this message. */
    static final int WAITED = 0x01;

    private StreamHeader() {
    }

    static void put(ByteBuffer out, int type, int flags, int creditsReturned) {
        out.put((byte) type).put((byte) flags).putShort((short) creditsReturned);
    }

    static int flags(ByteBuffer message) {
        return message.get(message.position() + 1) & 0xFF;
    }

    static int type(ByteBuffer message) {
        return message.get(message.position()) & 0xFF;
    }

    static int creditsReturned(ByteBuffer message) {
        return message.getShort(message.position() + 2) & 0xFFFF;
    }
}
