package io.extsock.spi;

import java.net.InetSocketAddress;

/**
 * A connection that a device provider made on an RDMA device ({@link IwarpProvider#connect},
 * {@link IwarpProvider#listen}): no channel of the JDK's carries it, so it names its own
 * addresses and device. Closing its {@link #stream()} ends the connection.
 */
public interface DeviceSession extends IwarpSession {

    /**
     * This end's address on the device's interface.
     *
     * @return the local address and port of the connection
     */
    InetSocketAddress localAddress();

    /**
     * The peer's address.
     *
     * @return the remote address and port of the connection
     */
    InetSocketAddress remoteAddress();

    /**
     * The RDMA device that carries the connection, as {@code ibv_devices} names it.
     *
     * @return the device's name, for example {@code siw0}
     */
    String deviceName();
}
