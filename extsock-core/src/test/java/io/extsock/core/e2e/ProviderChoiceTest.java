package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.IwarpOptions.Provider;
import io.extsock.IwarpUnavailableException;
import io.extsock.verbs.IwarpSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * IwarpOptions.PROVIDER with extsock-core alone on the path (no device provider): auto and
 * software run on the software engine and say so in settings(); device fails connect and accept
 * with the reason, and refuses the switch of a connected socket, which goes on as plain TCP.
 */
@Timeout(60)
class ProviderChoiceTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @Test
    void autoRunsOnTheSoftwareEngineWhereNoDeviceProviderIsAndSaysSoInSettings() throws Exception {
        try (ExtendedServerSocket server = new ExtendedServerSocket(0, 50, LOOPBACK)) {
            server.setOption(IwarpOptions.IWARP_MODE, true);
            CompletableFuture<IwarpSettings> accepted = CompletableFuture.supplyAsync(() -> {
                try (ExtendedSocket socket = (ExtendedSocket) server.accept()) {
                    IwarpSettings settings = socket.iwarp().settings();
                    socket.getOutputStream().write(socket.getInputStream().read());
                    return settings;
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            try (ExtendedSocket client = new ExtendedSocket()) {
                client.setOption(IwarpOptions.IWARP_MODE, true);
                client.connect(server.getLocalSocketAddress());
                client.getOutputStream().write(42);
                assertEquals(42, client.getInputStream().read());
                IwarpSettings settings = client.iwarp().settings();
                assertEquals(Provider.SOFTWARE, settings.provider());
                assertEquals("", settings.device());
            }
            IwarpSettings serverSide = accepted.get(20, TimeUnit.SECONDS);
            assertEquals(Provider.SOFTWARE, serverSide.provider());
            assertFalse(serverSide.initiator());
        }
    }

    @Test
    void deviceFailsTheConnectNamingWhatIsMissingAndClosesTheSocket() throws IOException {
        try (ServerSocket server = new ServerSocket(0, 50, LOOPBACK);
             ExtendedSocket client = new ExtendedSocket()) {
            client.setOption(IwarpOptions.PROVIDER, Provider.DEVICE);
            client.setOption(IwarpOptions.IWARP_MODE, true);
            InetSocketAddress target = (InetSocketAddress) server.getLocalSocketAddress();
            IwarpUnavailableException e = assertThrows(IwarpUnavailableException.class, () -> client.connect(target));
            assertEquals("IWARP_PROVIDER is device, but no device can carry the connection to "
                    + LOOPBACK.getHostAddress() + ":" + target.getPort() + ": no device provider is on the class path"
                    + " or module path (add extsock-rdma, which needs JDK 22 or later)", e.getMessage());
            assertTrue(client.isClosed());
        }
    }

    @Test
    void deviceRefusesTheSwitchOfAConnectedSocketWhichGoesOnAsPlainTcp() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, LOOPBACK);
             ExtendedSocket client = new ExtendedSocket()) {
            client.setOption(IwarpOptions.PROVIDER, Provider.DEVICE);
            client.connect(server.getLocalSocketAddress());
            try (Socket peer = server.accept()) {
                SocketException e = assertThrows(SocketException.class,
                        () -> client.setOption(IwarpOptions.IWARP_MODE, true));
                assertEquals("IWARP_PROVIDER is device, but this socket is connected over the host's TCP already:"
                        + " a device makes its own connections, so set IWARP_MODE before connect", e.getMessage());
                assertFalse(client.getOption(IwarpOptions.IWARP_MODE));
                client.getOutputStream().write(new byte[] {1, 2, 3});
                assertArrayEquals(new byte[] {1, 2, 3}, peer.getInputStream().readNBytes(3));
            }
        }
    }

    @Test
    void deviceFailsTheAcceptOfAServerSocketNamingWhatIsMissing() throws IOException {
        try (ExtendedServerSocket server = new ExtendedServerSocket(0, 50, LOOPBACK)) {
            server.setOption(IwarpOptions.PROVIDER, Provider.DEVICE);
            server.setOption(IwarpOptions.IWARP_MODE, true);
            IwarpUnavailableException e = assertThrows(IwarpUnavailableException.class, server::accept);
            assertTrue(e.getMessage().startsWith("IWARP_PROVIDER is device, but no device can carry the listener on "
                    + LOOPBACK.getHostAddress() + ":" + server.getLocalPort() + ": no device provider"), e.getMessage());
        }
    }
}
