package io.extsock.testkit.pair;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.IwarpUnavailableException;
import io.extsock.testkit.fault.FaultPlan;
import java.io.IOException;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The pair without an engine: the testkit's tests cannot see extsock-core (it depends on the
 * testkit), so the switch itself is tested by core's end-to-end tests, which use this pair. Here:
 * connecting, directly and through the relay, options set at the switch, the switch's own
 * exception rethrown, and what close closes.
 */
@Timeout(60)
class IwarpSocketPairTest {

    @Test
    void connectsDirectlyAndCloseClosesEverything() throws Exception {
        IwarpSocketPair pair = IwarpSocketPair.builder().connect();
        try (pair) {
            assertEchoes(pair.client(), pair.accepted());
            assertEchoes(pair.accepted(), pair.client());
            assertThrows(IllegalStateException.class, pair::relay);
        }
        assertTrue(pair.client().isClosed());
        assertTrue(pair.accepted().isClosed());
        assertTrue(pair.server().isClosed());
    }

    @Test
    void connectsThroughTheRelay() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.builder().through(FaultPlan.none(), FaultPlan.none()).connect()) {
            assertEchoes(pair.client(), pair.accepted());
            assertEchoes(pair.accepted(), pair.client());
            assertTrue(pair.relay().upstream().relayedOctets() > 0, String.valueOf(pair.relay().upstream()));
        }
    }

    @Test
    void theSwitchSetsEachSidesOptionsFirstAndRethrowsItsOwnException() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.builder()
                .clientOption(StandardSocketOptions.TCP_NODELAY, true)
                .serverOption(StandardSocketOptions.SO_KEEPALIVE, true)
                .connect()) {
            assertFalse(pair.client().getTcpNoDelay(), "options wait for the switch");
            // No engine on the testkit's class path: each switch fails, and the failure is the
            // switch's own exception, not a wrapper.
            assertThrows(IwarpUnavailableException.class, pair::switchBoth);
            assertTrue(pair.client().isClosed() || pair.client().getTcpNoDelay());
            assertTrue(pair.accepted().isClosed() || pair.accepted().getKeepAlive());
        }
        assertFalse(Thread.getAllStackTraces().keySet().stream()
                .anyMatch(thread -> thread.getName().equals("switches-the-accepted-end")), "the switching thread ended");
    }

    @Test
    void aFailedOpenThrowsTheSwitchsException() {
        assertThrows(IwarpUnavailableException.class, IwarpSocketPair::open);
        assertThrows(IwarpUnavailableException.class,
                () -> IwarpSocketPair.builder().through(FaultPlan.none(), FaultPlan.none()).open());
    }

    private static void assertEchoes(Socket from, Socket to) throws IOException {
        byte[] message = ("from " + from.getLocalPort()).getBytes(StandardCharsets.US_ASCII);
        from.getOutputStream().write(message);
        assertArrayEquals(message, to.getInputStream().readNBytes(message.length));
    }
}
