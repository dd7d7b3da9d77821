package io.extsock.internal;

import io.extsock.spi.SocketTransport;
import java.io.IOException;
import java.nio.channels.SocketChannel;

/**
 * The stream of a connection on an RDMA device, as its socket carries it: the device's own, and
 * on close the socket's channel too, which never connected (the adapter owns the TCP
 * connection) but holds a descriptor.
 */
final class DeviceTransport implements SocketTransport {

    private final SocketTransport device;
    private final SocketChannel unusedChannel;

    DeviceTransport(SocketTransport device, SocketChannel unusedChannel) {
        this.device = device;
        this.unusedChannel = unusedChannel;
    }

    @Override
    public int read(byte[] b, int off, int len, int timeoutMillis) throws IOException {
        return device.read(b, off, len, timeoutMillis);
    }

    @Override
    public int available() throws IOException {
        return device.available();
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        device.write(b, off, len);
    }

    @Override
    public void shutdownInput() throws IOException {
        device.shutdownInput();
    }

    @Override
    public void shutdownOutput() throws IOException {
        device.shutdownOutput();
    }

    @Override
    public void close() throws IOException {
        try {
            device.close();
        } finally {
            unusedChannel.close();
        }
    }
}
