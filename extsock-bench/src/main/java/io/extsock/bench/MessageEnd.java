package io.extsock.bench;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * One end of a connection as a ping-pong uses it, however it waits (a selector loop, or blocking
 * calls). Closing it closes its channel: an end that fails closes it, so that the other end fails
 * at once rather than wait for bytes that will not come.
 */
interface MessageEnd extends Closeable {

    /** Fills the buffer's remaining room. */
    void readFully(ByteBuffer buffer) throws IOException;

    /** Writes what the buffer holds. */
    void writeFully(ByteBuffer buffer) throws IOException;
}
