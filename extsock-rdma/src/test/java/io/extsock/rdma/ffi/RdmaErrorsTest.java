package io.extsock.rdma.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Each way a host can lack what the device provider needs gives one line that names the fix. */
class RdmaErrorsTest {

    private static void assertOneLine(String message) {
        assertFalse(message.contains("\n"), message);
    }

    @Test
    void aMissingLibraryNamesItselfAndThePackagesThatInstallIt() {
        RdmaUnavailableException missing = assertThrows(RdmaUnavailableException.class,
                () -> NativeCalls.library("libextsock-absent.so.1", RdmaErrors.INSTALL_RDMA_CORE));
        assertOneLine(missing.getMessage());
        assertTrue(missing.getMessage().startsWith("libextsock-absent.so.1 cannot be loaded"), missing.getMessage());
        assertTrue(missing.getMessage().contains("apt-get install libibverbs1 librdmacm1 ibverbs-providers"),
                missing.getMessage());
    }

    @Test
    void noDeviceNamesSiwAndTheSoftwareProviderAndAKernelWithoutVerbsNamesIbUverbs() {
        String none = RdmaErrors.noDevice(0).getMessage();
        assertOneLine(none);
        assertTrue(none.startsWith("no RDMA device on this host"), none);
        assertTrue(none.contains("rdma link add siw0 type siw netdev"), none);
        assertTrue(none.contains("software provider"), none);

        String noKernelSupport = RdmaErrors.noDevice(RdmaConstants.ENOSYS).getMessage();
        assertOneLine(noKernelSupport);
        assertTrue(noKernelSupport.contains("modprobe ib_uverbs"), noKernelSupport);
    }

    @Test
    void aRegistrationRefusedUnderAMemlockLimitNamesTheLimitAndHowToRaiseIt() {
        IOException refused = RdmaErrors.registrationFailed(8 << 20, RdmaConstants.ENOMEM, 65536);
        assertInstanceOf(RdmaUnavailableException.class, refused);
        assertOneLine(refused.getMessage());
        assertTrue(refused.getMessage().contains("cannot register 8388608 bytes"), refused.getMessage());
        assertTrue(refused.getMessage().contains("RLIMIT_MEMLOCK allows this process to pin only 65536 bytes"),
                refused.getMessage());
        assertTrue(refused.getMessage().contains("ulimit -l unlimited"), refused.getMessage());
        assertInstanceOf(RdmaUnavailableException.class,
                RdmaErrors.registrationFailed(4096, RdmaConstants.EPERM, 0));
    }

    @Test
    void anotherRegistrationFailureIsReportedAsTheCErrorItIs() {
        IOException unlimited = RdmaErrors.registrationFailed(4096, RdmaConstants.ENOMEM, Libc.RLIM_INFINITY);
        assertEquals(IOException.class, unlimited.getClass());
        assertEquals("ibv_reg_mr of 4096 bytes failed: " + Libc.strerror(RdmaConstants.ENOMEM) + " (errno 12)",
                unlimited.getMessage());
        IOException badAccess = RdmaErrors.registrationFailed(4096, 22, 65536);
        assertEquals(IOException.class, badAccess.getClass());
        assertTrue(badAccess.getMessage().contains("(errno 22)"), badAccess.getMessage());
    }
}
