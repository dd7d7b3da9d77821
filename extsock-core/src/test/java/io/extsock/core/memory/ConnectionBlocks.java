package io.extsock.core.memory;

import io.extsock.core.stream.IwarpStream;

/**
 * How many pool blocks one end of a connection takes from its {@link DirectBufferPool}, for the
 * tests that count the pool's bytes. Production has no such constant: the blocks are taken one
 * by one where they are used.
 */
public final class ConnectionBlocks {

    /**
     * What one end takes at start, with the default settings: the engine's staging block, the
     * gathering write's arena, the hold where an FPDU waits for its CRC (CRC is on by default),
     * and the stream's {@link IwarpStream#RECEIVE_BUFFERS} receive buffers.
     */
    public static final int BASE_BLOCKS = 3 + IwarpStream.RECEIVE_BUFFERS;

    private ConnectionBlocks() {
    }
}
