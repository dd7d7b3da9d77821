package io.extsock.examples.echo;

import io.extsock.examples.cli.TopicCommand;
import picocli.CommandLine.Command;

/** {@code extsock echo}: an echo server and a client that checks every echoed byte. */
@Command(name = "echo", description = "Echo over plain TCP or IWARP_MODE: a server, and a client that checks every byte "
                + "and prints latency percentiles.",
        subcommands = {EchoServerCommand.class, EchoClientCommand.class})
public final class EchoCommand extends TopicCommand {
}
