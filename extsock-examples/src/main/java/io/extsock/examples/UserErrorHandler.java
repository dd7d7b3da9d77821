package io.extsock.examples;

import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns an exception from a command into one clear line on standard error and a non-zero
 * exit code; the stack trace only with {@code --verbose}.
 */
final class UserErrorHandler implements IExecutionExceptionHandler {

    static final int FAILURE = 1;

    @Override
    public int handleExecutionException(Exception e, CommandLine commandLine, ParseResult parseResult) {
        boolean verbose = parseResult.hasMatchedOption("--verbose")
                || parseResult.subcommands().stream().anyMatch(sub -> sub.hasMatchedOption("--verbose"));
        commandLine.getErr().println("extsock " + commandLine.getCommandName() + ": " + describe(e));
        if (verbose) {
            e.printStackTrace(commandLine.getErr());
        }
        return FAILURE;
    }

    /** The exception's own message, qualified by its kind when the message alone is unclear. */
    static String describe(Throwable e) {
        String message = e.getMessage();
        if (message == null || message.isBlank()) {
            return e.getClass().getSimpleName();
        }
        return message;
    }
}
