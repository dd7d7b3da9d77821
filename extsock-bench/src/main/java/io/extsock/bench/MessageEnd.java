package io.extsock.bench;

import java.io.IOException;
import java.nio.ByteBuffer;

/** One end of a connection as a ping-pong uses it, however it waits (a selector loop, or blocking calls). */
interface MessageEnd {

    /** Fills the buffer's remaining room. */
    void readFully(ByteBuffer buffer) throws IOException;

    /** Writes what the buffer holds. */
    void writeFully(ByteBuffer buffer) throws IOException;
}
