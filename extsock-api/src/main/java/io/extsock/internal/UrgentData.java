package io.extsock.internal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;

/**
 * TCP urgent data, sent through the channel's socket adaptor (a SocketChannel has no call for
 * it), with the errors the JDK's NioSocketImpl raises.
 */
final class UrgentData {

    private UrgentData() {
    }

    /** Sends one octet of urgent data on a passthrough connection, as Socket's sendUrgentData. */
    static void send(SocketChannel ch, int data) throws IOException {
        boolean interrupted = InterruptShield.enter();
        try {
            ch.socket().sendUrgentData(data);
        } catch (ClosedChannelException e) {
            if (ch.isOpen()) {
                // The channel refuses it after shutdownOutput; the JDK's reaches TCP: EPIPE.
                IOException pipe = new IOException(SocketErrors.BROKEN_PIPE);
                pipe.initCause(e);
                throw pipe;
            }
            throw SocketErrors.asSocketError(e);
        } catch (SocketException | InterruptedIOException e) {
            throw e;
        } catch (IOException e) {
            if ("Socket buffer full".equals(e.getMessage())) {
                throw new SocketException("No buffer space available");  // NioSocketImpl's words
            }
            throw e;  // as NioSocketImpl, the system's error as an IOException ("Connection reset by peer")
        } finally {
            InterruptShield.exit(interrupted);
        }
    }
}
