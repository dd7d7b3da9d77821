package io.extsock.examples;

/**
 * A failure the user can do something about (a host that refuses, a missing file, a full
 * disk). Its message is the one line printed after {@code extsock <command>: }; the cause, if
 * any, is shown with {@code --verbose}.
 */
final class UserError extends RuntimeException {

    UserError(String message) {
        super(message);
    }

    UserError(String message, Throwable cause) {
        super(message, cause);
    }
}
