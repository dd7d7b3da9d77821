package io.extsock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.IwarpOptions;
import io.extsock.IwarpOptions.Provider;
import io.extsock.IwarpUnavailableException;
import io.extsock.spi.IwarpProvider;
import io.extsock.spi.IwarpSession;
import java.io.IOException;
import java.net.InetAddress;
import java.net.SocketOption;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** IwarpOptions.PROVIDER's choice between the software engine and a device, with device providers made here. */
class ProviderChooserTest {

    private static final InetAddress PEER = address("10.1.2.3");
    private static final InetAddress WILDCARD = address("0.0.0.0");
    private static final String WHAT = "the connection to 10.1.2.3:7000";

    /** A device provider whose answer for every address is given, recording the addresses asked about. */
    private static final class FakeDeviceProvider implements IwarpProvider {
        final List<InetAddress> asked = new ArrayList<>();
        private final Optional<String> device;
        private final IOException failure;

        FakeDeviceProvider(Optional<String> device, IOException failure) {
            this.device = device;
            this.failure = failure;
        }

        @Override
        public String name() {
            return "fake-device";
        }

        @Override
        public boolean makesOwnConnections() {
            return true;
        }

        @Override
        public Optional<String> deviceFor(InetAddress address) throws IOException {
            asked.add(address);
            if (failure != null) {
                throw failure;
            }
            return device;
        }

        @Override
        public IwarpSession attach(SocketChannel channel, boolean initiator, Map<SocketOption<?>, Object> options) {
            throw new UnsupportedOperationException("a device provider attaches nothing");
        }
    }

    @Test
    void autoRunsOnTheDeviceOfTheAddress() throws IOException {
        FakeDeviceProvider siw = new FakeDeviceProvider(Optional.of("siw0"), null);
        ProviderChooser.DeviceChoice choice = chooser(siw).choose(Map.of(), PEER, WHAT).orElseThrow();
        assertSame(siw, choice.provider());
        assertEquals("siw0", choice.device());
        assertEquals(List.of(PEER), siw.asked);
    }

    @Test
    void autoIsTheDefaultAndStaysWithSoftwareWhereverTheDeviceCannotTakeIt() throws IOException {
        assertEquals(Provider.AUTO, IwarpOptionValues.defaultValue(IwarpOptions.PROVIDER));
        assertTrue(noDeviceProvider().choose(Map.of(), PEER, WHAT).isEmpty(), "no device provider");
        assertTrue(chooser(new FakeDeviceProvider(Optional.empty(), null)).choose(Map.of(), PEER, WHAT).isEmpty(),
                "an address on no device");
        assertTrue(chooser(new FakeDeviceProvider(Optional.empty(), new IOException("no RDMA device on this host")))
                .choose(Map.of(), PEER, WHAT).isEmpty(), "a provider that cannot run here");
        FakeDeviceProvider siw = new FakeDeviceProvider(Optional.of("siw0"), null);
        assertTrue(chooser(siw).choose(Map.of(), WILDCARD, "the listener on 0.0.0.0:7000").isEmpty(),
                "a wildcard listener serves interfaces without a device too");
        assertTrue(siw.asked.isEmpty(), "a wildcard address is not asked about under auto");
    }

    @Test
    void softwareNeverAsksTheDeviceProvider() throws IOException {
        FakeDeviceProvider siw = new FakeDeviceProvider(Optional.of("siw0"), null);
        assertTrue(chooser(siw).choose(Map.of(IwarpOptions.PROVIDER, Provider.SOFTWARE), PEER, WHAT).isEmpty());
        assertTrue(siw.asked.isEmpty());
    }

    @Test
    void deviceTakesTheDeviceEvenForAWildcardListener() throws IOException {
        FakeDeviceProvider siw = new FakeDeviceProvider(Optional.of("siw0"), null);
        assertEquals("siw0", chooser(siw).choose(Map.of(IwarpOptions.PROVIDER, Provider.DEVICE), WILDCARD,
                "the listener on 0.0.0.0:7000").orElseThrow().device());
        assertEquals(List.of(WILDCARD), siw.asked);
    }

    @Test
    void deviceWithoutADeviceProviderSaysWhatToAdd() {
        IwarpUnavailableException e = assertThrows(IwarpUnavailableException.class,
                () -> noDeviceProvider().choose(Map.of(IwarpOptions.PROVIDER, Provider.DEVICE), PEER, WHAT));
        assertEquals("IWARP_PROVIDER is device, but no device can carry the connection to 10.1.2.3:7000: no device"
                + " provider is on the class path or module path (add extsock-rdma, which needs JDK 22 or later)",
                e.getMessage());
    }

    @Test
    void deviceOnAnAddressWithoutADeviceNamesTheAddress() {
        IwarpUnavailableException e = assertThrows(IwarpUnavailableException.class,
                () -> chooser(new FakeDeviceProvider(Optional.empty(), null))
                        .choose(Map.of(IwarpOptions.PROVIDER, Provider.DEVICE), PEER, WHAT));
        assertEquals("IWARP_PROVIDER is device, but no device can carry the connection to 10.1.2.3:7000: 10.1.2.3 is"
                + " on no RDMA device (use an address of an RDMA device's interface, or IWARP_PROVIDER auto or"
                + " software)", e.getMessage());
    }

    @Test
    void deviceOnAHostWhereTheProviderCannotRunGivesTheProvidersReason() {
        IOException why = new IOException("no RDMA device on this host: add an iWARP device");
        IwarpUnavailableException e = assertThrows(IwarpUnavailableException.class,
                () -> chooser(new FakeDeviceProvider(Optional.empty(), why))
                        .choose(Map.of(IwarpOptions.PROVIDER, Provider.DEVICE), PEER, WHAT));
        assertEquals("IWARP_PROVIDER is device, but no device can carry the connection to 10.1.2.3:7000: fake-device"
                + " cannot run connections on this host: no RDMA device on this host: add an iWARP device",
                e.getMessage());
        assertSame(why, e.getCause());
    }

    @Test
    void aProviderThatFailedToLoadFailsDeviceButNotAuto() throws IOException {
        ProviderChooser broken = new ProviderChooser(() -> {
            throw new IOException("bad service file");
        });
        assertTrue(broken.choose(Map.of(), PEER, WHAT).isEmpty());
        IwarpUnavailableException e = assertThrows(IwarpUnavailableException.class,
                () -> broken.choose(Map.of(IwarpOptions.PROVIDER, Provider.DEVICE), PEER, WHAT));
        assertTrue(e.getMessage().endsWith("the device provider failed to load: bad service file"), e.getMessage());
    }

    @Test
    void aSoftwareEngineRunsOnNoDeviceAndMakesNoConnectionOfItsOwn() throws IOException {
        IwarpProvider software = new IwarpProvider() {
            @Override
            public String name() {
                return "software";
            }

            @Override
            public IwarpSession attach(SocketChannel channel, boolean initiator,
                                       Map<SocketOption<?>, Object> options) {
                throw new UnsupportedOperationException();
            }
        };
        assertFalse(software.makesOwnConnections());
        assertTrue(software.deviceFor(PEER).isEmpty());
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> software.connect(new java.net.InetSocketAddress(PEER, 7000), 0, Map.of()));
        assertTrue(e.getMessage().startsWith("software does not make its own connections"), e.getMessage());
        assertThrows(UnsupportedOperationException.class,
                () -> software.listen(new java.net.InetSocketAddress(PEER, 7000), 50, Map.of()));
    }

    private static ProviderChooser chooser(IwarpProvider device) {
        return new ProviderChooser(() -> Optional.of(device));
    }

    private static ProviderChooser noDeviceProvider() {
        return new ProviderChooser(Optional::empty);
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
