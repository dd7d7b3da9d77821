package io.extsock.examples.rping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WorkOpcode;
import org.junit.jupiter.api.Test;

/**
 * A flushed Receive says which end ended an rping connection: "the server disconnected" only when
 * it closed or reset the connection, never when a Terminate ended it, sent by either end.
 */
class RpingPeerDisconnectedTest {

    private static final String SERVER = "the server 10.0.0.1:7174";

    @Test
    void aClosedOrResetConnectionIsThePeersGoodbye() {
        RpingPeer.PeerDisconnected ended = flushed("the peer closed the connection", CompletionCause.CONNECTION_LOST);
        assertTrue(ended.peerClosed());
        assertEquals(SERVER + " disconnected", ended.who(SERVER));
        assertEquals("the peer closed the connection", ended.getMessage());
    }

    @Test
    void aTerminateFromThePeerIsNotAGoodbye() {
        RpingPeer.PeerDisconnected ended = flushed("terminated by the peer: DDP tagged buffer error: base or bounds violation",
                CompletionCause.terminateReceived(1, 0, 1));
        assertFalse(ended.peerClosed());
        assertEquals(SERVER + " ended the connection with a Terminate", ended.who(SERVER));
    }

    @Test
    void aTerminateWeSentNamesThisSide() {
        RpingPeer.PeerDisconnected ended = flushed("the peer sent a Read Request beyond our IRD",
                CompletionCause.terminateSent(0, 2, 1));
        assertFalse(ended.peerClosed());
        assertEquals("extsock ended the connection to " + SERVER + " with a Terminate", ended.who(SERVER));
    }

    @Test
    void aFlushWithoutWordsStillSaysTheConnectionEnded() {
        RpingPeer.PeerDisconnected ended = flushed(null, CompletionCause.CONNECTION_LOST);
        assertEquals("the connection ended", ended.getMessage());
    }

    private static RpingPeer.PeerDisconnected flushed(String detail, CompletionCause cause) {
        return new RpingPeer.PeerDisconnected(new WorkCompletion(1, WorkOpcode.RECEIVE, CompletionStatus.FLUSHED, 0,
                false, 0, detail, cause));
    }
}
