package io.extsock.core.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/** A connection's bytes over its TCP socket: the JDK's non-blocking {@link SocketChannel}. */
final class SocketChannelTransport implements ByteTransport {

    private final SocketChannel channel;

    SocketChannelTransport(SocketChannel channel) {
        this.channel = channel;
    }

    @Override
    public int read(ByteBuffer into) throws IOException {
        return channel.read(into);
    }

    @Override
    public int write(ByteBuffer from) throws IOException {
        return channel.write(from);
    }

    @Override
    public long write(ByteBuffer[] from, int offset, int length) throws IOException {
        return channel.write(from, offset, length);
    }
}
