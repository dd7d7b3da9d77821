package io.extsock.core.engine;

import io.extsock.core.mpa.MpaConstants;
import io.extsock.internal.IwarpOptionValues;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The FPDU size that fills one TCP segment of a connection's path, as hardware and Linux siw
 * size their FPDUs (MPA's MULPDU follows the EMSS, RFC 5044 section 5): the MTU of the local
 * interface less the IP and TCP headers and the 12-octet timestamp option Linux sends. On
 * loopback (MTU 65536) that is nearly the largest FPDU there is; on Ethernet, 1448. Java does
 * not expose TCP_MAXSEG, and the interface MTU is what the kernel starts the MSS from.
 *
 * <p>Why a cache: finding the interface of an address and its MTU costs about 55 us and 24
 * system calls on Linux (the JDK lists every interface and opens sockets for its ioctls), paid
 * by both ends of every connection: 48 of the 252 system calls (futex aside) that an
 * IWARP_MODE connection's setup and first round trip made, both ends together. The size of
 * each local address is kept for {@link #TTL_NANOS}, so that a changed MTU is seen soon after;
 * a stale size only costs segment alignment, never correctness (any FPDU size within MPA's
 * bounds is valid on any path).
 */
final class PathFpduSize {

    private static final int IPV4_AND_TCP_HEADERS = 20 + 20;
    private static final int IPV6_AND_TCP_HEADERS = 40 + 20;
    private static final int TCP_TIMESTAMPS = 12;
    /** How long a local address's size is reused before its interface is asked again. */
    static final long TTL_NANOS = 1_000_000_000L;
    /** More local addresses than a host has: beyond it the cache starts afresh rather than grow. */
    private static final int MAX_ADDRESSES = 256;

    /** The MTU of the interface that holds a local address; -1 if unknown. */
    interface MtuLookup {
        int mtu(InetAddress local) throws IOException;
    }

    private record Known(int size, long sinceNanos) {
    }

    private static final PathFpduSize SHARED = new PathFpduSize(PathFpduSize::interfaceMtu, System::nanoTime);

    private final MtuLookup lookup;
    private final LongSupplier clock;
    private final ConcurrentHashMap<InetAddress, Known> known = new ConcurrentHashMap<>();

    PathFpduSize(MtuLookup lookup, LongSupplier clock) {
        this.lookup = lookup;
        this.clock = clock;
    }

    /** The size for the channel's path; {@link MpaConstants#DEFAULT_MAX_FPDU_SIZE} if the MTU is unknown. */
    static int of(SocketChannel channel) {
        try {
            return SHARED.forLocal(((InetSocketAddress) channel.getLocalAddress()).getAddress());
        } catch (IOException e) {
            return MpaConstants.DEFAULT_MAX_FPDU_SIZE;  // an unusual interface: the Ethernet size is safe
        }
    }

    /** The size for a connection from this local address, looked up at most once per {@link #TTL_NANOS}. */
    int forLocal(InetAddress local) {
        long now = clock.getAsLong();
        Known cached = known.get(local);
        if (cached != null && now - cached.sinceNanos() < TTL_NANOS) {
            return cached.size();
        }
        int mtu;
        try {
            mtu = lookup.mtu(local);
        } catch (IOException e) {
            mtu = -1;
        }
        int size = mtu > 0 ? forMtu(mtu, local instanceof Inet6Address) : MpaConstants.DEFAULT_MAX_FPDU_SIZE;
        if (known.size() >= MAX_ADDRESSES) {
            known.clear();
        }
        known.put(local, new Known(size, now));
        return size;
    }

    private static int interfaceMtu(InetAddress local) throws IOException {
        NetworkInterface nic = NetworkInterface.getByInetAddress(local);
        return nic != null ? nic.getMTU() : -1;
    }

    /** The FPDU size for an MTU: one segment's payload, a multiple of 4 (FPDUs are), within MPA's bounds. */
    static int forMtu(int mtu, boolean ipv6) {
        int segment = mtu - (ipv6 ? IPV6_AND_TCP_HEADERS : IPV4_AND_TCP_HEADERS) - TCP_TIMESTAMPS;
        int size = Math.min(segment, IwarpOptionValues.MAX_FPDU_SIZE) & ~3;
        return Math.max(size, IwarpOptionValues.MIN_FPDU_SIZE);
    }
}
