package io.extsock.examples.cli;

import io.extsock.examples.rping.RpingCommand;
import picocli.CommandLine;

/** Entry point of the {@code extsock} command. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code. */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    /** The {@code extsock} command line, with its error handling, ready to execute. */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new ExtsockCommand());
        RpingCommand.takeBackDashV(commandLine.getSubcommands().get("rping"));
        OptionTexts.tailor(commandLine);
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        UserErrorHandler errors = new UserErrorHandler();
        commandLine.setExecutionExceptionHandler(errors);
        commandLine.setParameterExceptionHandler(errors);
        commandLine.setExecutionStrategy(new JfrRecording(new CommandLine.RunLast()));  // --jfr FILE
        return commandLine;
    }
}
