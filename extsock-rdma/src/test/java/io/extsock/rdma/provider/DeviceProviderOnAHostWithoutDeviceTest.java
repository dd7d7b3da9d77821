package io.extsock.rdma.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.IwarpOptions.Provider;
import io.extsock.IwarpUnavailableException;
import io.extsock.rdma.ffi.RdmaUnavailableException;
import io.extsock.rdma.verbs.DeviceContext;
import io.extsock.spi.IwarpProvider;
import io.extsock.verbs.IwarpSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The device provider where the default suite runs, a host without an RDMA device (or without
 * rdma-core's libraries), next to the software engine: IWARP_PROVIDER auto runs every connection
 * on the software engine; device fails connect and accept with the provider's one-line reason.
 */
@Timeout(60)
class DeviceProviderOnAHostWithoutDeviceTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    /** What this host lacks, as the binding says it: no device, or no library. */
    private static String hostLacks;

    @BeforeAll
    static void theHostHasNoDevice() {
        hostLacks = assertThrows(RdmaUnavailableException.class, DeviceContext::deviceNames,
                "the default suite runs on a host without an RDMA device").getMessage();
    }

    @Test
    void serviceLoaderFindsBothProvidersAndTellsThemApart() {
        List<IwarpProvider> providers = ServiceLoader.load(IwarpProvider.class).stream()
                .map(ServiceLoader.Provider::get).toList();
        IwarpProvider device = providers.stream().filter(p -> p instanceof RdmaIwarpProvider).findFirst()
                .orElseThrow(() -> new AssertionError("no RdmaIwarpProvider among " + providers));
        assertTrue(device.makesOwnConnections());
        assertEquals("extsock-rdma", device.name());
        assertTrue(providers.stream().anyMatch(p -> !p.makesOwnConnections()), "the software engine: " + providers);
    }

    @Test
    void theDeviceProviderTakesOverNoChannel() {
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> new RdmaIwarpProvider().attach(null, true, Map.of()));
        assertTrue(e.getMessage().startsWith("extsock-rdma runs connections on an RDMA device, which makes its own"
                + " connections"), e.getMessage());
    }

    @Test
    void everyDeviceCallNamesWhatTheHostLacks() {
        RdmaIwarpProvider provider = new RdmaIwarpProvider();
        assertEquals(hostLacks, assertThrows(RdmaUnavailableException.class,
                () -> provider.deviceFor(LOOPBACK)).getMessage());
        assertEquals(hostLacks, assertThrows(RdmaUnavailableException.class,
                () -> provider.connect(new InetSocketAddress(LOOPBACK, 7), 1000, Map.of())).getMessage());
        assertEquals(hostLacks, assertThrows(RdmaUnavailableException.class,
                () -> provider.listen(new InetSocketAddress(LOOPBACK, 0), 50, Map.of())).getMessage());
    }

    @Test
    void autoRunsOnTheSoftwareEngine() throws Exception {
        try (ExtendedServerSocket server = new ExtendedServerSocket(0, 50, LOOPBACK)) {
            server.setOption(IwarpOptions.IWARP_MODE, true);
            CompletableFuture<IwarpSettings> accepted = CompletableFuture.supplyAsync(() -> {
                try (ExtendedSocket socket = (ExtendedSocket) server.accept()) {
                    socket.getOutputStream().write(socket.getInputStream().read() + 1);
                    return socket.iwarp().settings();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            try (ExtendedSocket client = new ExtendedSocket()) {
                client.setOption(IwarpOptions.IWARP_MODE, true);
                client.connect(server.getLocalSocketAddress());
                client.getOutputStream().write(41);
                assertEquals(42, client.getInputStream().read());
                assertEquals(Provider.SOFTWARE, client.iwarp().settings().provider());
            }
            assertEquals(Provider.SOFTWARE, accepted.get(20, TimeUnit.SECONDS).provider());
        }
    }

    @Test
    void deviceFailsTheConnectWithTheProvidersReason() throws IOException {
        try (ServerSocket server = new ServerSocket(0, 50, LOOPBACK);
             ExtendedSocket client = new ExtendedSocket()) {
            client.setOption(IwarpOptions.PROVIDER, Provider.DEVICE);
            client.setOption(IwarpOptions.IWARP_MODE, true);
            IwarpUnavailableException e = assertThrows(IwarpUnavailableException.class,
                    () -> client.connect(server.getLocalSocketAddress()));
            assertEquals("IWARP_PROVIDER is device, but no device can carry the connection to "
                    + LOOPBACK.getHostAddress() + ":" + server.getLocalPort() + ": extsock-rdma cannot run connections"
                    + " on this host: " + hostLacks, e.getMessage());
            assertInstanceOf(RdmaUnavailableException.class, e.getCause());
            assertTrue(client.isClosed());
        }
    }

    @Test
    void deviceFailsTheAcceptWithTheProvidersReason() throws IOException {
        try (ExtendedServerSocket server = new ExtendedServerSocket(0, 50, LOOPBACK)) {
            server.setOption(IwarpOptions.PROVIDER, Provider.DEVICE);
            server.setOption(IwarpOptions.IWARP_MODE, true);
            IwarpUnavailableException e = assertThrows(IwarpUnavailableException.class, server::accept);
            assertTrue(e.getMessage().endsWith("extsock-rdma cannot run connections on this host: " + hostLacks),
                    e.getMessage());
            assertFalse(server.isClosed());
        }
    }

    @Test
    void theStreamOfADeviceConnectionSaysWhatToUseInstead() {
        StreamNotYetOnDevice stream = new StreamNotYetOnDevice(null);
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> stream.read(new byte[1], 0, 1, 0));
        assertEquals(StreamNotYetOnDevice.GAP, e.getMessage());
        assertTrue(e.getMessage().contains("set IWARP_STREAMS false"), e.getMessage());
        assertThrows(UnsupportedOperationException.class, () -> stream.write(new byte[1], 0, 1));
    }

    @Test
    void optionsKeepExtsocksDefaultsAndRdmaCmsOneOctetDepths() {
        DeviceOptions defaults = DeviceOptions.of(Map.of());
        assertEquals(16, defaults.ird());
        assertEquals(16, defaults.ord());
        assertEquals(10_000, defaults.mpaTimeout());
        assertTrue(defaults.streams());
        DeviceOptions deep = DeviceOptions.of(Map.of(IwarpOptions.IRD, 1000, IwarpOptions.ORD, 300,
                IwarpOptions.STREAMS, false));
        assertEquals(255, deep.ird());
        assertEquals(255, deep.ord());
        assertFalse(deep.streams());
    }
}
