package io.extsock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.IwarpOptions;
import java.io.IOException;
import java.net.SocketException;
import java.net.SocketOptions;
import java.net.StandardSocketOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

/**
 * The option rules both socket implementations share, through each implementation's own option
 * methods: Socket and ServerSocket only ever pass well-typed values, so these errors are reached
 * by calling the implementations directly, as a SocketImpl's other users may.
 */
@Timeout(60)
class SocketOptionTableTest {

    @Test
    void serverSocketKnowsOnlyItsOwnIntKeyedOptions() throws IOException {
        ChannelServerSocketImpl server = new ChannelServerSocketImpl();
        server.create(true);
        try {
            assertMessage("Unknown option " + SocketOptions.TCP_NODELAY,
                    () -> server.setOption(SocketOptions.TCP_NODELAY, true));
            assertMessage("Unknown option " + SocketOptions.SO_SNDBUF, () -> server.getOption(SocketOptions.SO_SNDBUF));
            assertMessage("Unknown option " + SocketOptions.SO_BINDADDR,
                    () -> server.setOption(SocketOptions.SO_BINDADDR, null));
            server.setOption(SocketOptions.IP_TOS, 8);
            assertEquals(8, server.getOption(SocketOptions.IP_TOS));
        } finally {
            server.close();
        }
    }

    @Test
    void bothSocketsCheckSharedOptionsAlike() throws IOException {
        ChannelServerSocketImpl server = new ChannelServerSocketImpl();
        ChannelSocketImpl socket = new ChannelSocketImpl();
        server.create(true);
        socket.create(true);
        try {
            for (Options impl : new Options[] {server::setOption, socket::setOption}) {
                assertMessage("Bad value for SO_TIMEOUT", () -> impl.set(SocketOptions.SO_TIMEOUT, "1"));
                assertMessage("timeout < 0", () -> impl.set(SocketOptions.SO_TIMEOUT, -1));
                assertMessage("SO_RCVBUF <= 0", () -> impl.set(SocketOptions.SO_RCVBUF, 0));
                assertMessage("Bad value for SO_REUSEADDR", () -> impl.set(SocketOptions.SO_REUSEADDR, 1));
                assertMessage("Bad value for IP_TOS", () -> impl.set(SocketOptions.IP_TOS, true));
            }
        } finally {
            server.close();
            socket.close();
        }
    }

    @Test
    void socketTurnsLingerOffWithFalse() throws IOException {
        ChannelSocketImpl socket = new ChannelSocketImpl();
        socket.create(true);
        try {
            assertMessage("Bad value for SO_LINGER", () -> socket.setOption(SocketOptions.SO_LINGER, true));
            assertMessage("SO_SNDBUF <= 0", () -> socket.setOption(SocketOptions.SO_SNDBUF, -5));
            socket.setOption(SocketOptions.SO_LINGER, 7);
            assertEquals(7, socket.getOption(SocketOptions.SO_LINGER));
            socket.setOption(SocketOptions.SO_LINGER, false);
            assertEquals(Boolean.FALSE, socket.getOption(SocketOptions.SO_LINGER));
        } finally {
            socket.close();
        }
    }

    @Test
    void typedOptionsAreCheckedBeforeTheirValue() throws IOException {
        ChannelServerSocketImpl server = new ChannelServerSocketImpl();
        server.create(true);
        try {
            UnsupportedOperationException unsupported = assertThrows(UnsupportedOperationException.class,
                    () -> server.setOption(StandardSocketOptions.TCP_NODELAY, true));
            assertEquals("'TCP_NODELAY' not supported", unsupported.getMessage());
            IllegalArgumentException invalid = assertThrows(IllegalArgumentException.class,
                    () -> server.setOption(IwarpOptions.IRD, null));
            assertEquals("Invalid value 'null'", invalid.getMessage());
            IllegalArgumentException outOfRange = assertThrows(IllegalArgumentException.class,
                    () -> server.setOption(IwarpOptions.IRD, IwarpOptionValues.MAX_READ_DEPTH + 1));
            assertTrue(outOfRange.getMessage().startsWith(IwarpOptions.IRD + " must be in [0, "),
                    outOfRange.getMessage());
            assertTrue(SocketOptionTable.ofServerSocket().contains(IwarpOptions.NEGOTIATE_BEFORE_ACCEPT));
            assertFalse(SocketOptionTable.ofSocket().contains(IwarpOptions.NEGOTIATE_BEFORE_ACCEPT));
        } finally {
            server.close();
        }
    }

    /** An int-keyed option setter, as SocketImpl has it. */
    private interface Options {
        void set(int option, Object value) throws SocketException;
    }

    private static void assertMessage(String message, Executable call) {
        SocketException e = assertThrows(SocketException.class, call);
        assertEquals(message, e.getMessage());
    }
}
