package io.extsock.rdma.ffi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** sockaddr_in and sockaddr_in6 as librdmacm reads them. */
class SocketAddressesTest {

    @Test
    void anIpv4AddressIsFamilyThenPortAndAddressInNetworkOrder() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sin = SocketAddresses.of(
                    new InetSocketAddress(InetAddress.getByName("192.168.7.9"), 0x4e21), arena);
            assertEquals(SocketAddresses.SOCKADDR_IN_SIZE, sin.byteSize());
            assertArrayEquals(new byte[] {2, 0, 0x4e, 0x21, (byte) 192, (byte) 168, 7, 9, 0, 0, 0, 0, 0, 0, 0, 0},
                    sin.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void anIpv6AddressCarriesItsScope() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            InetAddress address = InetAddress.getByName("fe80::1%1");
            MemorySegment sin6 = SocketAddresses.of(new InetSocketAddress(address, 7471), arena);
            assertEquals(SocketAddresses.SOCKADDR_IN6_SIZE, sin6.byteSize());
            assertEquals(10, sin6.get(ValueLayout.JAVA_SHORT, 0));
            assertEquals(7471, Short.toUnsignedInt(Short.reverseBytes(sin6.get(ValueLayout.JAVA_SHORT, 2))));
            assertArrayEquals(address.getAddress(), sin6.asSlice(8, 16).toArray(ValueLayout.JAVA_BYTE));
            assertEquals(1, sin6.get(ValueLayout.JAVA_INT, 24));
        }
    }

    @Test
    void anUnresolvedAddressIsRefused() {
        try (Arena arena = Arena.ofConfined()) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> SocketAddresses.of(InetSocketAddress.createUnresolved("rdma.example", 1), arena));
            assertEquals("the address rdma.example/<unresolved>:1 is not resolved", refused.getMessage());
        }
    }

    @Test
    void whatLibrdmacmFillsReadsBackAsTheAddress() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            InetSocketAddress v4 = new InetSocketAddress(InetAddress.getByName("10.0.2.15"), 65_000);
            InetSocketAddress v6 = new InetSocketAddress(InetAddress.getByName("2001:db8::7"), 7471);
            assertEquals(v4, SocketAddresses.from(SocketAddresses.of(v4, arena)));
            assertEquals(v6, SocketAddresses.from(SocketAddresses.of(v6, arena)));
        }
    }

    @Test
    void anotherFamilyIsNamed() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment unix = arena.allocate(SocketAddresses.SOCKADDR_IN6_SIZE);
            unix.set(ValueLayout.JAVA_SHORT, 0, (short) 1);
            assertEquals("not an IPv4 or IPv6 socket address: family 1",
                    assertThrows(IllegalArgumentException.class, () -> SocketAddresses.from(unix)).getMessage());
        }
    }
}
