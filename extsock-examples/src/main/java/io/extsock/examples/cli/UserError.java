package io.extsock.examples.cli;

/**
 * A failure the user can do something about (a host that refuses, a missing file, a full
 * disk). Its message is the one line printed after {@code extsock <command>: }; the cause, if
 * any, is shown with {@code --verbose}.
 */
public final class UserError extends RuntimeException {

    public UserError(String message) {
        super(message);
    }

    public UserError(String message, Throwable cause) {
        super(message, cause);
    }
}
