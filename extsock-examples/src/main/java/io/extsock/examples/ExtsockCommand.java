package io.extsock.examples;

import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;

/** The {@code extsock} command and its subcommands. */
@Command(name = "extsock",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Extended sockets for the JVM: plain TCP, or software iWARP per connection.",
        subcommands = {DemoCommand.class, HelpCommand.class})
public final class ExtsockCommand {
}
