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

    /*
     * A received message starts at index 0 of its receive buffer: read there, whatever the
     * buffer's position, so that looking at a message needs no view of its own.
     */

    static int flags(ByteBuffer message) {
        return message.get(1) & 0xFF;
    }

    static int type(ByteBuffer message) {
        return message.get(0) & 0xFF;
    }

    static int creditsReturned(ByteBuffer message) {
        return message.getShort(2) & 0xFFFF;
    }

    /**
     * What is wrong with a stream message from the peer, in words that name the field and its
     * value, or null if nothing is. Every field is checked: the length (a whole header; data on
     * DATA only, and some: our writer never sends an empty DATA), the type, the flags (WAITED on
     * DATA only) and the order (nothing but CREDIT after the peer's FIN). The credits returned
     * are the writer's to check ({@link StreamOutput#creditsReturned}): it knows how many the
     * peer can have.
     *
     * @param message the buffer the message arrived in, from index 0
     * @param length the message's length
     * @param peerFinished whether the peer's FIN came before it
     */
    static String violation(ByteBuffer message, int length, boolean peerFinished) {
        if (length < LENGTH) {
            return "a stream message of " + length + " bytes arrived, shorter than the " + LENGTH + "-octet stream"
                    + " header";
        }
        int type = type(message);
        int flags = flags(message);
        int data = length - LENGTH;
        switch (type) {
            case DATA:
                if ((flags & ~WAITED) != 0) {
                    return "a DATA message with flags 0x" + hex(flags) + " (only WAITED, 0x01, is defined)";
                }
                if (data == 0) {
                    return "a DATA message without data";
                }
                if (peerFinished) {
                    return "a DATA message of " + data + " octets after the peer's FIN";
                }
                return null;
            case CREDIT:
            case FIN:
                String name = type == CREDIT ? "CREDIT" : "FIN";
                if (flags != 0) {
                    return "a " + name + " message with flags 0x" + hex(flags) + " (none is defined)";
                }
                if (data != 0) {
                    return "a " + name + " message with " + data + " octets behind its header (it carries none)";
                }
                if (type == FIN && peerFinished) {
                    return "a second FIN";
                }
                return null;
            default:
                return "a stream message of unknown type " + type + " arrived (DATA 1, CREDIT 2 and FIN 3 are"
                        + " defined)";
        }
    }

    private static String hex(int octet) {
        return String.format("%02x", octet);
    }
}
