package io.extsock.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.extsock.core.mpa.MpaConstants;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PathFpduSizeTest {

    @Test
    void oneSegmentOfTheMtuLessHeadersAndTimestamps() {
        assertEquals(1448, PathFpduSize.forMtu(1500, false), "Ethernet, IPv4: what siw and RNICs use");
        assertEquals(1428, PathFpduSize.forMtu(1500, true), "Ethernet, IPv6");
        assertEquals(8948, PathFpduSize.forMtu(9000, false), "jumbo frames");
        assertEquals(65_484, PathFpduSize.forMtu(65_536, false), "loopback");
    }

    @Test
    void withinMpasBoundsAndAMultipleOfFour() {
        assertEquals(65_544, PathFpduSize.forMtu(1 << 20, false), "no FPDU is longer than 2 + 65535 + pad + 4");
        assertEquals(64, PathFpduSize.forMtu(68, false), "the smallest FPDU worth sending");
        assertEquals(0, PathFpduSize.forMtu(1503, false) % 4);
    }

    @Test
    void anAddressIsLookedUpOncePerTtl() throws Exception {
        AtomicLong now = new AtomicLong(5);
        AtomicInteger lookups = new AtomicInteger();
        PathFpduSize sizes = new PathFpduSize(local -> {
            lookups.incrementAndGet();
            return 1500;
        }, now::get);
        InetAddress local = InetAddress.getByName("192.0.2.7");

        assertEquals(1448, sizes.forLocal(local));
        now.addAndGet(PathFpduSize.TTL_NANOS - 1);
        assertEquals(1448, sizes.forLocal(local));
        assertEquals(1, lookups.get(), "within the TTL the size is reused");

        now.addAndGet(1);
        assertEquals(1448, sizes.forLocal(local));
        assertEquals(2, lookups.get(), "after it the interface is asked again");
    }

    @Test
    void eachAddressHasItsOwnSizeAndAChangedMtuIsSeenAfterTheTtl() throws Exception {
        AtomicLong now = new AtomicLong();
        AtomicInteger mtu = new AtomicInteger(9000);
        PathFpduSize sizes = new PathFpduSize(local -> local.isLoopbackAddress() ? 65_536 : mtu.get(), now::get);
        InetAddress nic = InetAddress.getByName("192.0.2.7");

        assertEquals(8948, sizes.forLocal(nic));
        assertEquals(65_484, sizes.forLocal(InetAddress.getLoopbackAddress()));
        mtu.set(1500);
        assertEquals(8948, sizes.forLocal(nic), "cached");
        now.addAndGet(PathFpduSize.TTL_NANOS);
        assertEquals(1448, sizes.forLocal(nic));
    }

    @Test
    void anUnknownMtuOrAFailedLookupGivesTheEthernetSize() throws Exception {
        PathFpduSize unknown = new PathFpduSize(local -> -1, () -> 0);
        PathFpduSize failing = new PathFpduSize(local -> {
            throw new SocketException("no such interface");
        }, () -> 0);
        InetAddress local = InetAddress.getByName("192.0.2.7");
        assertEquals(MpaConstants.DEFAULT_MAX_FPDU_SIZE, unknown.forLocal(local));
        assertEquals(MpaConstants.DEFAULT_MAX_FPDU_SIZE, failing.forLocal(local));
    }

    @Test
    void theLoopbackPathOfARealChannel() throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel client = SocketChannel.open(server.getLocalAddress());
             SocketChannel accepted = server.accept()) {
            int expected = PathFpduSize.forMtu(
                    NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress()).getMTU(), false);
            assertEquals(expected, PathFpduSize.of(client));
            assertEquals(expected, PathFpduSize.of(accepted), "the second end reuses the first one's lookup");
        }
    }
}
