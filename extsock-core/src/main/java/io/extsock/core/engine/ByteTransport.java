package io.extsock.core.engine;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The bytes under one IWARP_MODE connection, as its duty cycle reads and writes them: never
 * blocking, a call takes what it can. Today a TCP {@link java.nio.channels.SocketChannel}
 * ({@link SocketChannelTransport}); the seam where another byte path, such as a shared-memory
 * ring between two processes on one host, stands in.
 */
interface ByteTransport {

    /**
     * Reads what is there into {@code into}, up to its remaining space.
     *
     * @return the octets read, 0 if none were there, -1 at the end of the peer's stream
     */
    int read(ByteBuffer into) throws IOException;

    /** Writes what it can of {@code from}; returns the octets written (0: no room now). */
    int write(ByteBuffer from) throws IOException;

    /** Writes what it can of the buffers, in order, as one gathering write; returns the octets written. */
    long write(ByteBuffer[] from, int offset, int length) throws IOException;
}
