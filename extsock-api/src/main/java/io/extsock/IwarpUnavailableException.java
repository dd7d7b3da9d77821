package io.extsock;

import java.net.SocketException;

/**
 * Thrown when a socket is asked to switch to IWARP_MODE but no iWARP engine is present: no
 * {@link io.extsock.spi.IwarpProvider} was found on the class path or module path.
 */
public class IwarpUnavailableException extends SocketException {

    /**
     * Creates the exception.
     *
     * @param message what is missing and how to add it
     */
    public IwarpUnavailableException(String message) {
        super(message);
    }
}
