package io.extsock.verbs;

import java.io.IOException;

/**
 * Prepares a connection between MPA negotiation and the first byte from the peer: the place
 * to register memory and post Receives, so that a peer that sends at once finds them posted
 * (a Send that finds no Receive ends the connection, RFC 5041 section 7.2). Set it with
 * {@link io.extsock.IwarpOptions#SETUP}.
 */
@FunctionalInterface
public interface IwarpSetup {

    /**
     * Prepares one connection. Called once per connection, on the thread that switches it,
     * before the engine starts.
     *
     * @param connection the connection's extended side, ready for registrations and posts
     * @throws IOException to fail the switch: the socket is closed and the exception reaches
     *         the code that set IWARP_MODE (or first used an accepted socket)
     */
    void prepare(IwarpConnection connection) throws IOException;
}
