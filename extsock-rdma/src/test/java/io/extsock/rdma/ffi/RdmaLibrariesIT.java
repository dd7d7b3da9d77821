package io.extsock.rdma.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The binding against the installed libibverbs and librdmacm, on a host with or without a
 * device: every symbol it binds resolves with its signature, and the calls that need no device
 * answer as rdma-core documents. Needs root (to install rdma-core) or rdma-core installed.
 */
@Tag("interop")
class RdmaLibrariesIT {

    @BeforeAll
    static void install() throws Exception {
        RdmaCoreInstallation.ensure();
    }

    @Test
    void everyBoundSymbolResolvesAndTheLibrariesNameTheirEnums() throws Exception {
        Verbs verbs = Verbs.load();
        RdmaCm cm = RdmaCm.load();
        assertEquals("success", verbs.wcStatus(RdmaConstants.IBV_WC_SUCCESS));
        assertEquals("Work Request Flushed Error", verbs.wcStatus(RdmaConstants.IBV_WC_WR_FLUSH_ERR));
        assertEquals("RDMA_CM_EVENT_ESTABLISHED", cm.eventName(RdmaConstants.RDMA_CM_EVENT_ESTABLISHED));
        assertEquals("RDMA_CM_EVENT_CONNECT_REQUEST", cm.eventName(RdmaConstants.RDMA_CM_EVENT_CONNECT_REQUEST));
    }

    @Test
    void theDeviceListIsTheKernelsOrTheOneLineFix() throws Exception {
        Verbs verbs = Verbs.load();
        Path sysfs = Path.of("/sys/class/infiniband");
        List<String> inSysfs = List.of();
        if (Files.isDirectory(sysfs)) {
            try (Stream<Path> devices = Files.list(sysfs)) {
                inSysfs = devices.map(p -> p.getFileName().toString()).sorted().toList();
            }
        }
        if (inSysfs.isEmpty()) {
            RdmaUnavailableException none = assertThrows(RdmaUnavailableException.class, verbs::deviceNames);
            assertTrue(none.getMessage().startsWith("no RDMA device"), none.getMessage());
            assertFalse(none.getMessage().contains("\n"), none.getMessage());
        } else {
            assertEquals(inSysfs, verbs.deviceNames().stream().sorted().toList());
        }
    }
}
