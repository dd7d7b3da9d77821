package io.extsock.examples.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns a failure into one clear line on standard error and a non-zero exit code: 2 for bad
 * arguments, 1 for anything else. The stack trace is printed only with {@code --verbose}.
 */
public final class UserErrorHandler implements IExecutionExceptionHandler, IParameterExceptionHandler {

    public static final int FAILURE = 1;
    public static final int BAD_ARGUMENTS = 2;

    @Override
    public int handleExecutionException(Exception e, CommandLine commandLine, ParseResult parseResult) {
        PrintWriter err = commandLine.getErr();
        // Anything but a UserError is unexpected: name its kind, the message alone may be cryptic.
        String line = e instanceof UserError ? e.getMessage()
                : e.getClass().getSimpleName() + ": " + UserErrors.message(e);
        err.println(prefix(commandLine) + line);
        if (verbose(parseResult)) {
            e.printStackTrace(err);
        }
        err.flush();
        return FAILURE;
    }

    @Override
    public int handleParseException(ParameterException e, String[] args) {
        CommandLine commandLine = e.getCommandLine();
        PrintWriter err = commandLine.getErr();
        err.println(prefix(commandLine) + e.getMessage() + suggestion(e) + " (see '"
                + commandLine.getCommandSpec().qualifiedName() + " --help')");
        if (verbose(commandLine.getParseResult())) {
            e.printStackTrace(err);
        }
        err.flush();
        return BAD_ARGUMENTS;
    }

    /**
     * " (did you mean --size?)" for a mistyped command or option: the name within two typing
     * mistakes of it, else picocli's own suggestions (names that share its beginning).
     */
    private static String suggestion(ParameterException e) {
        if (!(e instanceof UnmatchedArgumentException unmatched) || unmatched.getUnmatched().isEmpty()) {
            return "";
        }
        String typed = unmatched.getUnmatched().get(0).split("=", 2)[0];
        CommandLine command = e.getCommandLine();
        List<String> names = new ArrayList<>(command.getCommandSpec().optionsMap().keySet());
        names.addAll(command.getSubcommands().keySet());
        String nearest = Typos.nearest(typed, names);
        List<String> suggestions = nearest != null ? List.of(nearest) : unmatched.getSuggestions();
        return suggestions.isEmpty() ? "" : " (did you mean " + String.join(" or ", suggestions) + "?)";
    }

    /** "extsock echo: " for any command under {@code extsock echo}: the name users think of. */
    public static String prefix(CommandLine commandLine) {
        CommandLine topic = commandLine;
        while (topic.getParent() != null && topic.getParent().getParent() != null) {
            topic = topic.getParent();
        }
        String root = topic.getParent() != null ? topic.getParent().getCommandName() + " " : "";
        return root + topic.getCommandName() + ": ";
    }

    /** Whether {@code --verbose} was given, on this command or any command above it. */
    public static boolean verbose(CommandLine commandLine) {
        CommandLine root = commandLine;
        while (root.getParent() != null) {
            root = root.getParent();
        }
        return verbose(root.getParseResult());
    }

    private static boolean verbose(ParseResult result) {
        for (ParseResult r = result; r != null; r = r.subcommand()) {
            if (r.hasMatchedOption("--verbose")) {
                return true;
            }
        }
        return false;
    }
}
