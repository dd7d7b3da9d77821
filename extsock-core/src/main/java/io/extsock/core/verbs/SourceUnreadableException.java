package io.extsock.core.verbs;

/**
 * The bytes of a message's source could not be read as the transmit side framed them: a file
 * region's file ended early, was closed or failed to read. Unchecked, because it comes through
 * {@code MessagePayload.view}; the transmit side catches it, ends the connection with a
 * Terminate and fails the request whose source it was.
 */
final class SourceUnreadableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    SourceUnreadableException(String message) {
        super(message);
    }

    SourceUnreadableException(String message, Throwable cause) {
        super(message, cause);
    }
}
