package io.extsock.rdma.ffi;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Makes sure rdma-core's headers and libraries and a C compiler are installed, installing
 * Debian's packages when we are root. What cannot be had fails the test that asked, with the
 * command that would install it: a layout check that silently skipped would vouch for nothing.
 */
final class RdmaCoreInstallation {

    static final List<String> PACKAGES = List.of("libibverbs-dev", "librdmacm-dev", "ibverbs-providers", "gcc");

    private static final List<Path> NEEDED = List.of(Path.of("/usr/include/infiniband/verbs.h"),
            Path.of("/usr/include/rdma/rdma_cma.h"));

    private RdmaCoreInstallation() {
    }

    static synchronized void ensure() throws IOException, InterruptedException {
        if (missing().isEmpty()) {
            return;
        }
        String howTo = "as root: apt-get update; apt-get install -y " + String.join(" ", PACKAGES);
        if (!run(List.of("id", "-u")).trim().equals("0")) {
            throw new IOException("the rdma-core interop tests need " + missing() + "; this JVM is not root, so it"
                    + " cannot install them. Install them " + howTo + ", and run the interop tests as root");
        }
        StringBuilder log = new StringBuilder();
        log.append(run(List.of("apt-get", "update", "-qq")));
        List<String> install = new ArrayList<>(List.of("apt-get", "install", "-y", "-qq"));
        install.addAll(PACKAGES);
        log.append(run(install));
        if (!missing().isEmpty()) {
            throw new IOException("installing rdma-core's packages failed: " + missing() + " still missing."
                    + " Install them " + howTo + "\n" + log);
        }
    }

    private static List<String> missing() {
        List<String> missing = new ArrayList<>();
        NEEDED.stream().filter(path -> !Files.exists(path)).forEach(path -> missing.add(path.toString()));
        if (!Files.isExecutable(Path.of("/usr/bin/gcc"))) {
            missing.add("/usr/bin/gcc");
        }
        return missing;
    }

    /** Runs a command to its end. @return what it printed, stdout and stderr together */
    static String run(List<String> command) throws IOException, InterruptedException {
        Path log = Files.createTempFile("rdma-core", ".log");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().put("DEBIAN_FRONTEND", "noninteractive");
            Process process = builder.start();
            if (!process.waitFor(900, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish in 900 s");
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new IOException(String.join(" ", command) + " failed (exit " + process.exitValue() + "):\n"
                        + output);
            }
            return output;
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
