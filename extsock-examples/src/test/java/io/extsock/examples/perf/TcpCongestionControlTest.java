package io.extsock.examples.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TcpCongestionControlTest {

    @Test
    void readsTheNameTheKernelGives(@TempDir Path dir) throws Exception {
        Path setting = Files.writeString(dir.resolve("tcp_congestion_control"), "cubic\n");
        assertEquals("cubic", TcpCongestionControl.name(setting));
    }

    @Test
    void saysUnknownWhereTheKernelSaysNothing(@TempDir Path dir) throws Exception {
        assertEquals("unknown", TcpCongestionControl.name(dir.resolve("absent")));
        assertEquals("unknown", TcpCongestionControl.name(Files.writeString(dir.resolve("empty"), "\n")));
    }

    @Test
    void onLinuxItIsTheNamespacesDefault() throws Exception {
        String expected = Files.isReadable(TcpCongestionControl.LINUX_SETTING)
                ? Files.readString(TcpCongestionControl.LINUX_SETTING).strip() : "unknown";
        assertEquals(expected, TcpCongestionControl.name());
    }
}
