package io.extsock.testkit.wire;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Makes sure tshark (the dissectors) and dumpcap (the capture) are there, installing Debian's
 * tshark package when we are root. A judge that cannot be had fails loudly: a test that
 * silently skipped its wire check would claim a conformance nobody checked.
 */
final class WiresharkInstallation {

    static final List<String> PROGRAMS = List.of("tshark", "dumpcap");

    private WiresharkInstallation() {
    }

    static void ensure() throws IOException, InterruptedException {
        if (!missing(System.getenv().getOrDefault("PATH", "/usr/bin:/bin")).isEmpty()) {
            ensure(System.getenv().getOrDefault("PATH", "/usr/bin:/bin"), runningAsRoot());
        }
    }

    /** With the search path and who we are given, so that the refusal can be tested as root. */
    static void ensure(String path, boolean root) throws IOException, InterruptedException {
        List<String> missing = missing(path);
        if (missing.isEmpty()) {
            return;
        }
        String howTo = "as root: apt-get update; echo 'wireshark-common wireshark-common/install-setuid boolean false'"
                + " | debconf-set-selections; DEBIAN_FRONTEND=noninteractive apt-get install -y tshark";
        if (!root) {
            throw new IOException("the wire judge needs " + String.join(" and ", missing) + " (Debian package tshark),"
                    + " and root to capture on lo; this JVM is not root, so it cannot install them. Install them "
                    + howTo + ", and run the interop tests as root");
        }
        List<ExternalCommand> steps = new ArrayList<>();
        // Without the preseed the package asks whether non-root users may capture, and waits.
        steps.add(ExternalCommand.run(List.of("sh", "-c",
                "echo 'wireshark-common wireshark-common/install-setuid boolean false' | debconf-set-selections"), 60));
        steps.add(ExternalCommand.run(List.of("apt-get", "update", "-qq"), 600));
        steps.add(ExternalCommand.run(List.of("apt-get", "install", "-y", "-qq", "tshark"),
                Map.of("DEBIAN_FRONTEND", "noninteractive"), 900));
        List<String> stillMissing = missing(path);
        if (!stillMissing.isEmpty()) {
            StringBuilder log = new StringBuilder();
            steps.forEach(step -> log.append("\n---- ").append(step));
            throw new IOException("installing tshark failed: " + String.join(" and ", stillMissing)
                    + " still missing. Install them " + howTo + log);
        }
    }

    private static List<String> missing(String path) {
        return PROGRAMS.stream().filter(program -> !ExternalCommand.onPath(program, path)).toList();
    }

    private static boolean runningAsRoot() throws IOException, InterruptedException {
        ExternalCommand id = ExternalCommand.run(List.of("id", "-u"), 30);
        return id.succeeded() && id.output().trim().equals("0");
    }
}
