package io.extsock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.IwarpOptions.Provider;
import io.extsock.verbs.IwarpSettings;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** IwarpOptions.PROVIDER as sockets take it, as text reads into it, and the carrier in IwarpSettings. */
class IwarpProviderOptionTest {

    @Test
    void parsesTheThreeValuesAsPeopleWriteThem() {
        assertEquals(Provider.AUTO, Provider.parse("auto"));
        assertEquals(Provider.SOFTWARE, Provider.parse(" Software "));
        assertEquals(Provider.DEVICE, Provider.parse("DEVICE"));
        assertEquals("device", Provider.DEVICE.label());
    }

    @Test
    void anythingElseNamesTheAllowedValues() {
        assertEquals("IWARP_PROVIDER must be auto, software or device, not 'rnic'",
                assertThrows(IllegalArgumentException.class, () -> Provider.parse("rnic")).getMessage());
        assertEquals("IWARP_PROVIDER must be auto, software or device, not 'null'",
                assertThrows(IllegalArgumentException.class, () -> Provider.parse(null)).getMessage());
    }

    @Test
    void socketsAndServerSocketsTakeItAndReadAutoByDefault() throws IOException {
        assertTrue(IwarpOptions.ALL.contains(IwarpOptions.PROVIDER));
        try (ExtendedSocket socket = new ExtendedSocket();
             ExtendedServerSocket server = new ExtendedServerSocket()) {
            assertEquals(Provider.AUTO, socket.getOption(IwarpOptions.PROVIDER));
            assertEquals(Provider.AUTO, server.getOption(IwarpOptions.PROVIDER));
            socket.setOption(IwarpOptions.PROVIDER, Provider.DEVICE);
            server.setOption(IwarpOptions.PROVIDER, Provider.SOFTWARE);
            assertEquals(Provider.DEVICE, socket.getOption(IwarpOptions.PROVIDER));
            assertEquals(Provider.SOFTWARE, server.getOption(IwarpOptions.PROVIDER));
            assertTrue(socket.supportedOptions().contains(IwarpOptions.PROVIDER));
            assertTrue(server.supportedOptions().contains(IwarpOptions.PROVIDER));
        }
    }

    @Test
    void settingsNameTheCarrierAndItsDevice() {
        IwarpSettings software = new IwarpSettings(2, true, false, false, 16, 16, 1448, true);
        assertEquals(Provider.SOFTWARE, software.provider());
        assertEquals("", software.device());
        IwarpSettings siw = new IwarpSettings(2, true, false, false, 16, 16, 1448, true, Provider.DEVICE, "siw0");
        assertTrue(siw.toString().endsWith("initiator=true, provider=DEVICE, device=siw0]"), siw.toString());
    }

    @Test
    void settingsRefuseAutoAndAMismatchedDevice() {
        assertEquals("a connection runs on the software engine or a device, not on AUTO",
                assertThrows(IllegalArgumentException.class, () -> new IwarpSettings(2, true, false, false, 16, 16,
                        1448, true, Provider.AUTO, "")).getMessage());
        assertEquals("a device connection names its device, and only it does: device with device ''",
                assertThrows(IllegalArgumentException.class, () -> new IwarpSettings(2, true, false, false, 16, 16,
                        1448, true, Provider.DEVICE, "")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new IwarpSettings(2, true, false, false, 16, 16, 1448,
                true, Provider.SOFTWARE, "siw0"));
    }
}
