package io.extsock.examples.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Tailors the options that clients and servers share ({@link Endpoint}'s) to each side: a
 * server's help says where it listens and has no connect timeout; a client's says where it
 * connects. A server is a command with {@link ServerLoop}'s {@code --connections}.
 */
final class OptionTexts {

    private OptionTexts() {
    }

    static void tailor(CommandLine commandLine) {
        CommandSpec spec = commandLine.getCommandSpec();
        if (spec.findOption("--host") != null && spec.findOption("--port") != null) {
            if (spec.findOption("--connections") != null) {
                describe(spec, "--host", "Address to listen on (default: all).");
                describe(spec, "--port", "TCP port to listen on (default: ${DEFAULT-VALUE}; 0 for any free port).");
                spec.remove(spec.findOption("--connect-timeout"));
            } else {
                describe(spec, "--host", "Host to connect to (default: localhost).");
                describe(spec, "--port", "The server's TCP port (default: ${DEFAULT-VALUE}).");
            }
        }
        commandLine.getSubcommands().values().forEach(OptionTexts::tailor);
    }

    private static void describe(CommandSpec spec, String name, String description) {
        OptionSpec option = spec.findOption(name);
        spec.remove(option);
        spec.addOption(OptionSpec.builder(option).description(description).build());
    }
}
