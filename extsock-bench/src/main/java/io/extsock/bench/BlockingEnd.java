package io.extsock.bench;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/** One end of a connection whose channel is in blocking mode: the thread sleeps inside {@code read} and {@code write}. */
final class BlockingEnd implements MessageEnd {

    private final SocketChannel channel;

    BlockingEnd(SocketChannel channel) {
        this.channel = channel;
    }

    @Override
    public void readFully(ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                throw new EOFException("the other end closed with " + buffer.remaining() + " bytes to come");
            }
        }
    }

    @Override
    public void writeFully(ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
