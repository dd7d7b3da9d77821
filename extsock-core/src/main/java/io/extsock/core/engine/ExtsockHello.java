package io.extsock.core.engine;

import io.extsock.IwarpNegotiationException;
import io.extsock.core.stream.IwarpStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * What one extsock end tells the other in MPA private data, ahead of the application's own:
 * that it is extsock, and how many stream receive buffers of what size it posted (the
 * initial credits of the stream protocol; 0 when its streams are off).
 *
 * <pre>
 * 'X' 'S' 'K' '1' | receive buffers (16) | buffer size (32) | application private data...
 * </pre>
 *
 * A peer whose private data does not start with the magic is not extsock (Linux siw, a
 * hardware adapter): verbs work with it, the socket's streams do not.
 *
 * <p>A peer that says hello announces either 0 receive buffers (its streams are off; the size
 * then means nothing) or from 2 to {@link IwarpStream#MAX_PEER_RECEIVE_BUFFERS} of more than 4
 * octets each: a stream writer keeps its last credit for a credit update or FIN, so data needs
 * two; no peer has more receives posted than a receive queue holds; each Send carries the
 * 4-octet stream header before its data; and a receive buffer is a Java buffer, so the 32-bit
 * size stays below 2^31. Anything else is refused as malformed (found by fuzzing: a buffer size
 * of 4 or less made the writer send empty Sends for ever or throw IndexOutOfBoundsException,
 * one buffer made it wait for ever).
 */
record ExtsockHello(int streamReceiveBuffers, int streamBufferSize) {

    static final int LENGTH = 10;
    private static final byte[] MAGIC = {'X', 'S', 'K', '1'};
    /** Credits a stream writer needs for data: one to spend and one kept for a credit update or FIN. */
    static final int MIN_RECEIVE_BUFFERS = 2;
    /** The stream header every Send carries (StreamHeader.LENGTH); a buffer must hold a data octet more. */
    private static final int STREAM_HEADER_LENGTH = 4;

    /** No extsock peer: nobody said hello. */
    static final ExtsockHello NONE = new ExtsockHello(0, 0);

    boolean streamsOn() {
        return streamReceiveBuffers > 0;
    }

    /** The hello followed by the application's private data. */
    byte[] encodeWith(byte[] applicationData) {
        ByteBuffer out = ByteBuffer.allocate(LENGTH + applicationData.length);
        out.put(MAGIC).putShort((short) streamReceiveBuffers).putInt(streamBufferSize).put(applicationData);
        return out.array();
    }

    /**
     * The hello at the start of the peer's private data, or {@link #NONE}.
     *
     * @throws IwarpNegotiationException (MALFORMED) when the hello announces receive buffers no
     *     stream can run on (see the class comment)
     */
    static ExtsockHello readFrom(byte[] privateData) throws IwarpNegotiationException {
        if (!saysHello(privateData)) {
            return NONE;
        }
        ByteBuffer in = ByteBuffer.wrap(privateData, MAGIC.length, LENGTH - MAGIC.length);
        int buffers = Short.toUnsignedInt(in.getShort());
        int size = in.getInt();  // unsigned on the wire: above 2^31 it reads negative here, and is refused
        if (buffers != 0 && (buffers < MIN_RECEIVE_BUFFERS || size <= STREAM_HEADER_LENGTH)) {
            throw new IwarpNegotiationException(IwarpNegotiationException.Reason.MALFORMED, "the peer's extsock hello"
                    + " announces " + buffers + " stream receive buffers of " + Integer.toUnsignedString(size)
                    + " octets; a stream needs 0 (off) or at least " + MIN_RECEIVE_BUFFERS + " of more than "
                    + STREAM_HEADER_LENGTH + " (and less than 2^31)", null);
        }
        if (buffers > IwarpStream.MAX_PEER_RECEIVE_BUFFERS) {
            throw new IwarpNegotiationException(IwarpNegotiationException.Reason.MALFORMED, "the peer's extsock hello"
                    + " announces " + buffers + " stream receive buffers, more than a receive queue holds ("
                    + IwarpStream.MAX_PEER_RECEIVE_BUFFERS + ")", null);
        }
        return new ExtsockHello(buffers, size);
    }

    /** The application's part of the peer's private data. */
    static byte[] applicationData(byte[] privateData) {
        return saysHello(privateData) ? Arrays.copyOfRange(privateData, LENGTH, privateData.length)
                : privateData.clone();
    }

    private static boolean saysHello(byte[] privateData) {
        return privateData.length >= LENGTH && Arrays.equals(privateData, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
    }
}
