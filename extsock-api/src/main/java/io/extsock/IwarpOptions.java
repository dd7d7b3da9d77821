package io.extsock;

import io.extsock.internal.IwarpSocketOption;
import java.net.SocketOption;
import java.util.Set;

/**
 * Socket options that switch a connection to iWARP and tune it. Set them with {@link
 * java.net.Socket#setOption} on an {@link ExtendedSocket} (one connection) or on an {@link
 * ExtendedServerSocket} (every accepted connection).
 */
public final class IwarpOptions {

    /**
     * Switches the connection to the iWARP engine (MPA negotiation, then RDMAP over TCP).
     * The stream keeps working over it; the extended API becomes available. False by default:
     * the socket is then a plain TCP passthrough.
     */
    public static final SocketOption<Boolean> IWARP_MODE =
            new IwarpSocketOption<>("IWARP_MODE", Boolean.class);

    /** Every option of this class. */
    public static final Set<SocketOption<?>> ALL = Set.of(IWARP_MODE);

    private IwarpOptions() {
    }
}
