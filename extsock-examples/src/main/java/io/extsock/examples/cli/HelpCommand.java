package io.extsock.examples.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.ColorScheme;
import picocli.CommandLine.IHelpCommandInitializable2;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;

/**
 * {@code extsock help [COMMAND...]}: the help of the command the words name, however deep
 * ({@code extsock help file get} is file get's), as {@code extsock file get --help} prints it.
 */
@Command(name = "help", helpCommand = true,
        description = "Prints the help of a command: extsock help file get is the same as extsock file get --help.")
public final class HelpCommand implements IHelpCommandInitializable2, Callable<Integer> {

    @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "The command, in as many words as it has.")
    String[] path = {};

    private CommandLine self;
    private ColorScheme colors;
    private PrintWriter out;

    @Override
    public void init(CommandLine helpCommandLine, ColorScheme colorScheme, PrintWriter out, PrintWriter err) {
        this.self = helpCommandLine;
        this.colors = colorScheme;
        this.out = out;
    }

    @Override
    public Integer call() {
        CommandLine command = self.getParent();
        for (String word : path) {
            CommandLine next = command.getSubcommands().get(word);
            if (next == null) {
                throw new ParameterException(self, "no command '" + String.join(" ", path) + "': "
                        + command.getCommandSpec().qualifiedName() + " has " + String.join(", ",
                        command.getSubcommands().keySet()));
            }
            command = next;
        }
        command.usage(out, colors);
        out.flush();
        return 0;
    }
}
