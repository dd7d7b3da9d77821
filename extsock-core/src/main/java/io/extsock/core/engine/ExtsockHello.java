package io.extsock.core.engine;

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
 */
record ExtsockHello(int streamReceiveBuffers, int streamBufferSize) {

    static final int LENGTH = 10;
    private static final byte[] MAGIC = {'X', 'S', 'K', '1'};

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

    /** The hello at the start of the peer's private data, or {@link #NONE}. */
    static ExtsockHello readFrom(byte[] privateData) {
        if (privateData.length < LENGTH || !Arrays.equals(privateData, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            return NONE;
        }
        ByteBuffer in = ByteBuffer.wrap(privateData, MAGIC.length, LENGTH - MAGIC.length);
        return new ExtsockHello(Short.toUnsignedInt(in.getShort()), in.getInt());
    }

    /** The application's part of the peer's private data. */
    static byte[] applicationData(byte[] privateData) {
        return readFrom(privateData) == NONE ? privateData.clone()
                : Arrays.copyOfRange(privateData, LENGTH, privateData.length);
    }
}
