package io.extsock.testkit.wire;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Without the tools and without root, the judge refuses loudly, saying what is missing and how to get it. */
class WiresharkInstallationTest {

    @Test
    void notRootAndNothingInstalledFailsNamingWhatIsMissing(@TempDir Path empty) {
        IOException refused = assertThrows(IOException.class, () -> WiresharkInstallation.ensure(empty.toString(), false));
        String message = refused.getMessage();
        assertTrue(message.contains("tshark and dumpcap"), message);
        assertTrue(message.contains("not root"), message);
        assertTrue(message.contains("apt-get install -y tshark"), message);
        assertTrue(message.contains("install-setuid boolean false"), message);
    }

    @Test
    void whatIsThereIsNotInstalledAgain(@TempDir Path tools) throws Exception {
        for (String program : WiresharkInstallation.PROGRAMS) {
            Path fake = Files.createFile(tools.resolve(program));
            assertTrue(fake.toFile().setExecutable(true));
        }
        WiresharkInstallation.ensure(tools.toString(), false);  // present: nothing to do, no root needed
    }
}
