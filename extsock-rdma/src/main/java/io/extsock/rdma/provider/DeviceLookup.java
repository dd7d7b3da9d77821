package io.extsock.rdma.provider;

import io.extsock.rdma.ffi.RdmaCm;
import io.extsock.rdma.ffi.RdmaStructs;
import io.extsock.rdma.ffi.SocketAddresses;
import io.extsock.rdma.ffi.Verbs;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.util.List;
import java.util.Optional;

/**
 * Which RDMA device an address is on, as the kernel sees it: the local address of the route to
 * it (the address itself when it is this host's) bound with {@code rdma_bind_addr}, which binds
 * an identifier to the device whose interface has that address and fails when none has.
 */
final class DeviceLookup {

    private DeviceLookup() {
    }

    /**
     * @param address a peer's address, or a local one; a wildcard address is on every device
     * @return the device's name (every device's, comma-separated, for a wildcard); empty when
     *         the address is on none
     * @throws io.extsock.rdma.ffi.RdmaUnavailableException when the host has no library or no
     *         device at all, naming the fix
     */
    static Optional<String> deviceFor(InetAddress address) throws IOException {
        List<String> devices = Verbs.load().deviceNames();
        if (address.isAnyLocalAddress()) {
            return Optional.of(String.join(",", devices));
        }
        InetAddress local = localAddressTowards(address);
        RdmaCm cm = RdmaCm.load();
        MemorySegment id = cm.createId(MemorySegment.NULL, MemorySegment.NULL);  // a synchronous identifier
        try (Arena arena = Arena.ofConfined()) {
            try {
                cm.bindAddr(id, SocketAddresses.of(new InetSocketAddress(local, 0), arena));
            } catch (IOException noDevice) {
                return Optional.empty();  // ENODEV or EADDRNOTAVAIL: no device has the address
            }
            MemorySegment context = id.reinterpret(RdmaStructs.RDMA_CM_ID.size())
                    .get(ValueLayout.ADDRESS, RdmaStructs.RDMA_CM_ID.offset("verbs"));
            return context.equals(MemorySegment.NULL) ? Optional.empty()
                    : Optional.of(Verbs.load().deviceNameOf(context));
        } finally {
            cm.destroyId(id);
        }
    }

    /** This host's address that a connection to {@code address} would leave from. */
    static InetAddress localAddressTowards(InetAddress address) throws IOException {
        if (address.isLoopbackAddress() || NetworkInterface.getByInetAddress(address) != null) {
            return address;
        }
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(address, 9);  // no packet: a UDP connect only picks the route
            return probe.getLocalAddress();
        }
    }
}
