package io.extsock.core.engine;

import io.extsock.core.mpa.MpaConstants;
import io.extsock.internal.IwarpOptionValues;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.channels.SocketChannel;

/**
 * The FPDU size that fills one TCP segment of a connection's path, as hardware and Linux siw
 * size their FPDUs (MPA's MULPDU follows the EMSS, RFC 5044 section 5): the MTU of the local
 * interface less the IP and TCP headers and the 12-octet timestamp option Linux sends. On
 * loopback (MTU 65536) that is nearly the largest FPDU there is; on Ethernet, 1448. Java does
 * not expose TCP_MAXSEG, and the interface MTU is what the kernel starts the MSS from.
 */
final class PathFpduSize {

    private static final int IPV4_AND_TCP_HEADERS = 20 + 20;
    private static final int IPV6_AND_TCP_HEADERS = 40 + 20;
    private static final int TCP_TIMESTAMPS = 12;

    private PathFpduSize() {
    }

    /** The size for the channel's path; {@link MpaConstants#DEFAULT_MAX_FPDU_SIZE} if the MTU is unknown. */
    static int of(SocketChannel channel) {
        try {
            InetAddress local = ((InetSocketAddress) channel.getLocalAddress()).getAddress();
            NetworkInterface nic = NetworkInterface.getByInetAddress(local);
            int mtu = nic != null ? nic.getMTU() : -1;
            return mtu > 0 ? forMtu(mtu, local instanceof Inet6Address) : MpaConstants.DEFAULT_MAX_FPDU_SIZE;
        } catch (IOException e) {
            return MpaConstants.DEFAULT_MAX_FPDU_SIZE;  // an unusual interface: the Ethernet size is safe
        }
    }

    /** The FPDU size for an MTU: one segment's payload, a multiple of 4 (FPDUs are), within MPA's bounds. */
    static int forMtu(int mtu, boolean ipv6) {
        int segment = mtu - (ipv6 ? IPV6_AND_TCP_HEADERS : IPV4_AND_TCP_HEADERS) - TCP_TIMESTAMPS;
        int size = Math.min(segment, IwarpOptionValues.MAX_FPDU_SIZE) & ~3;
        return Math.max(size, IwarpOptionValues.MIN_FPDU_SIZE);
    }
}
