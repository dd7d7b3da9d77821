package io.extsock.examples.cli;

import io.extsock.examples.demo.DemoCommand;
import io.extsock.examples.echo.EchoCommand;
import io.extsock.examples.file.FileCommand;
import io.extsock.examples.perf.PerfCommand;
import io.extsock.examples.rping.RpingCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The {@code extsock} command and its subcommands. */
@Command(name = "extsock",
        scope = ScopeType.INHERIT,  // every subcommand gets --help and --version
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Extended sockets for the JVM: plain TCP, or software iWARP per connection.",
        subcommands = {DemoCommand.class, EchoCommand.class, FileCommand.class, PerfCommand.class,
            RpingCommand.class, HelpCommand.class})
public final class ExtsockCommand {

    @Option(names = "--verbose", scope = ScopeType.INHERIT,
            description = "On failure, print the stack trace after the one-line message; a server prints a line"
                    + " for each connection as it starts and as it ends.")
    boolean verbose;

    @Option(names = "--jfr", paramLabel = "FILE", scope = ScopeType.INHERIT,
            description = "Record the run with JDK Flight Recorder (extsock's events and the JDK's defaults) into"
                    + " FILE, written when the command ends, fails or is stopped.")
    java.nio.file.Path jfr;
}
