package io.extsock.rdma.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;

/**
 * Java socket addresses as the {@code struct sockaddr_in} and {@code struct sockaddr_in6} that
 * librdmacm takes ({@code <netinet/in.h>}): family in host order, port and address in network order.
 */
public final class SocketAddresses {

    /** {@code sizeof(struct sockaddr_in)}. */
    public static final int SOCKADDR_IN_SIZE = 16;
    /** {@code sizeof(struct sockaddr_in6)}. */
    public static final int SOCKADDR_IN6_SIZE = 28;

    private static final ValueLayout.OfShort PORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private SocketAddresses() {
    }

    /**
     * @param address a resolved address
     * @param arena   where the struct lives
     * @return the struct, zeroed where C leaves it zero (sin_zero, flow info, scope of a global address)
     * @throws IllegalArgumentException if the address is unresolved
     */
    public static MemorySegment of(InetSocketAddress address, Arena arena) {
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("the address " + address + " is not resolved");
        }
        if (address.getAddress() instanceof Inet4Address v4) {
            MemorySegment sin = arena.allocate(SOCKADDR_IN_SIZE, 4);
            sin.set(ValueLayout.JAVA_SHORT, 0, (short) RdmaConstants.AF_INET);
            sin.set(PORT, 2, (short) address.getPort());
            MemorySegment.copy(v4.getAddress(), 0, sin, ValueLayout.JAVA_BYTE, 4, 4);
            return sin;
        }
        Inet6Address v6 = (Inet6Address) address.getAddress();
        MemorySegment sin6 = arena.allocate(SOCKADDR_IN6_SIZE, 4);
        sin6.set(ValueLayout.JAVA_SHORT, 0, (short) RdmaConstants.AF_INET6);
        sin6.set(PORT, 2, (short) address.getPort());
        MemorySegment.copy(v6.getAddress(), 0, sin6, ValueLayout.JAVA_BYTE, 8, 16);
        sin6.set(ValueLayout.JAVA_INT, 24, v6.getScopeId());
        return sin6;
    }

    /**
     * Reads a {@code struct sockaddr_in} or {@code struct sockaddr_in6}, as librdmacm fills an
     * identifier's source and destination.
     *
     * @param sockaddr at least the struct's size
     * @return the address
     * @throws IllegalArgumentException for another family
     */
    public static InetSocketAddress from(MemorySegment sockaddr) {
        int family = sockaddr.get(ValueLayout.JAVA_SHORT, 0);
        int port = Short.toUnsignedInt(sockaddr.get(PORT, 2));
        byte[] octets;
        if (family == RdmaConstants.AF_INET) {
            octets = sockaddr.asSlice(4, 4).toArray(ValueLayout.JAVA_BYTE);
        } else if (family == RdmaConstants.AF_INET6) {
            octets = sockaddr.asSlice(8, 16).toArray(ValueLayout.JAVA_BYTE);
        } else {
            throw new IllegalArgumentException("not an IPv4 or IPv6 socket address: family " + family);
        }
        try {
            return new InetSocketAddress(InetAddress.getByAddress(octets), port);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);  // cannot happen: the length is 4 or 16
        }
    }
}
