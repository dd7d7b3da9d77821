package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.WorkCompletion;

/**
 * What the tests on an {@link EmbeddedPair} check of a Terminate (RFC 5040 section 4.8): its
 * control word as written ({@link EmbeddedPair.Side#terminateWritten()}), the completion cause
 * it gives each end, and the connection's end after it.
 */
final class TerminateAssertions {

    /** Terminate flag M: the segment length of the terminated DDP segment is valid. */
    static final int M = 0x80;
    /** Terminate flag D: the terminated DDP segment's header is copied. */
    static final int D = 0x40;
    /** Terminate flag R: the terminated RDMA Read Request's header is copied. */
    static final int R = 0x20;

    private TerminateAssertions() {
    }

    /**
     * The Terminate's control word: layer and type, code, and exactly these flags.
     *
     * @param terminate     the Terminate's octets, as {@link EmbeddedPair.Side#terminateWritten()} gives them
     * @param layerAndType  the layer in the high nibble, the error type in the low
     * @return the Terminate, for the test to look further
     */
    static byte[] assertTerminate(byte[] terminate, int layerAndType, int code, int flags) {
        assertNotNull(terminate, "a Terminate was sent");
        assertEquals(layerAndType, terminate[0] & 0xFF, "layer and error type");
        assertEquals(code, terminate[1] & 0xFF, "error code");
        assertEquals(flags, terminate[2] & 0xE0, "M, D and R flags");
        return terminate;
    }

    /** The cause of the completions ended on the end that sent a Terminate with this control word. */
    static CompletionCause sentCause(int layerAndType, int code) {
        return CompletionCause.terminateSent(layerAndType >> 4, layerAndType & 0xF, code);
    }

    /**
     * A Read the responder refused: it completed REMOTE_ACCESS_ERROR, caused by the Terminate the
     * responder wrote, with this control word and the Read Request's headers copied (M, D, R).
     *
     * @return the responder's Terminate
     */
    static byte[] assertReadRefused(EmbeddedPair pair, WorkCompletion read, int layerAndType, int code) {
        assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, read.status());
        assertEquals(CompletionCause.terminateReceived(layerAndType >> 4, layerAndType & 0xF, code), read.cause());
        return assertTerminate(pair.responder().terminateWritten(), layerAndType, code, M | D | R);
    }

    /** Both ends ended and close, and only the responder, which caught the violation, terminated. */
    static void assertEnded(EmbeddedPair pair) {
        pair.pump();
        assertFalse(pair.initiator().isConnected(), "the initiator ended");
        assertFalse(pair.responder().isConnected(), "the responder ended");
        assertTrue(pair.initiator().askedToClose() && pair.responder().askedToClose(), "both ends close");
        assertNull(pair.initiator().terminateWritten(), "only the end that caught the violation terminates");
    }
}
