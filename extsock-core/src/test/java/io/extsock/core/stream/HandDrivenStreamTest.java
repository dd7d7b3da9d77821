package io.extsock.core.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.SocketTimeoutException;
import org.junit.jupiter.api.Test;

/**
 * The hand-driven stream's own contract: nothing but the test drives it, so a wait the peer leaves
 * unmet can never end, and interrupts do not end it: such a wait fails the test that caused it
 * rather than hang the suite.
 */
class HandDrivenStreamTest {

    @Test
    void aReadWithoutALimitThatThePeerNeverAnswersFailsTheTest() throws Exception {
        HandDrivenStream h = new HandDrivenStream(4);
        h.onWait = (stream, condition) -> { };  // a peer that sends nothing

        AssertionError failure = assertThrows(AssertionError.class, () -> h.input.read(new byte[1], 0, 1, 0));

        assertTrue(failure.getMessage().contains("waits without a limit"), failure.getMessage());
    }

    @Test
    void aReadWithATimeoutStillTimesOutAsASocketsDoes() throws Exception {
        HandDrivenStream h = new HandDrivenStream(4);
        h.onWait = (stream, condition) -> { };

        assertThrows(SocketTimeoutException.class, () -> h.input.read(new byte[1], 0, 1, 50));
    }

    @Test
    void aWaitThePeerMeetsReturnsTheData() throws Exception {
        HandDrivenStream h = new HandDrivenStream(4);
        h.onWait = (stream, condition) -> stream.receiveData(3);

        assertEquals(3, h.input.read(new byte[8], 0, 8, 0));
    }
}
