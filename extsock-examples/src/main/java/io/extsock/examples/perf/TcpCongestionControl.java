package io.extsock.examples.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The kernel's default TCP congestion control, printed with perf compare's bandwidth rows:
 * over loopback it decides much of what plain TCP moves. On a 2-vCPU VM with BBR (which, without
 * the fq qdisc, paces inside TCP with a timer per burst), one core moved 2.8 GB/s where CUBIC
 * and Reno moved 9.3 GB/s on the same sockets, and IWARP_MODE's ratios to plain TCP swung with
 * how much each test kept in flight (docs/benchmarks.md, "Bandwidth and the kernel's congestion control").
 */
final class TcpCongestionControl {

    /** Where Linux says it (the network namespace's default; a socket may choose another). */
    static final Path LINUX_SETTING = Path.of("/proc/sys/net/ipv4/tcp_congestion_control");

    private TcpCongestionControl() {
    }

    /** The default's name, or "unknown" where the kernel does not say. */
    static String name() {
        return name(LINUX_SETTING);
    }

    static String name(Path setting) {
        try {
            String name = Files.readString(setting).strip();
            return name.isEmpty() ? "unknown" : name;
        } catch (IOException | SecurityException e) {
            return "unknown";
        }
    }
}
