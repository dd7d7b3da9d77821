package io.extsock.bench;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a main class of this module in a JVM of its own, with the agent or without, and returns
 * what it printed: for the agent benchmarks, which need a JVM per variant (the agent converts
 * every socket of its JVM). The child's class path is this module's jar alone, no extsock: under
 * the agent, extsock comes from the agent jar.
 */
final class ChildJvm {

    private ChildJvm() {
    }

    /**
     * @param agentArguments what follows {@code -javaagent:AGENT_JAR=}, or null for no agent
     * @return the child's standard output, one element a line
     * @throws IOException if it cannot start or exits other than 0 (its standard error is in the message)
     */
    static List<String> run(Path agentJar, String agentArguments, Class<?> main, String... arguments)
            throws IOException, InterruptedException {
        return run(null, agentJar, agentArguments, main, arguments);
    }

    /**
     * @param cpus the CPUs the child may run on ({@code taskset -c CPUS}), or null for any
     */
    static List<String> run(String cpus, Path agentJar, String agentArguments, Class<?> main, String... arguments)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        if (cpus != null) {
            command.addAll(List.of("taskset", "-c", cpus));
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (agentArguments != null) {
            command.add("-javaagent:" + agentJar + "=" + agentArguments);
        }
        command.add("-cp");
        command.add(ownJar().toString());
        command.add(main.getName());
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.PIPE).start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " exited with " + process.exitValue() + ":\n" + out + err);
        }
        return out.lines().toList();
    }

    /** This module's jar (or classes directory). */
    private static Path ownJar() {
        try {
            return Path.of(ChildJvm.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The value of the line {@code NAME VALUE} in a child's output. */
    static double value(List<String> lines, String name) {
        for (String line : lines) {
            if (line.startsWith(name + " ")) {
                return Double.parseDouble(line.substring(name.length() + 1).trim());
            }
        }
        throw new IllegalStateException("no '" + name + "' in " + lines);
    }
}
