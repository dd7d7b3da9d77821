package io.extsock.core.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An end can always return the credits it owes: a CREDIT message spends no credit (it goes into
 * the buffer DATA and FIN leave, PeerWindow.RESERVE), and the peer posts its buffer again
 * without owing a credit for it. Were a CREDIT to spend the last credit, two ends whose writers
 * wait for each other's credits (one with none and credits owed, the other with one credit,
 * credits owed, and a writer that needs two) could never tell each other.
 */
class StreamCreditReturnTest {

    private static final int CHUNK = HandDrivenStream.BUFFER_SIZE - StreamHeader.LENGTH;

    @Test
    void anEndHoldingOnlyTheReserveStillReturnsWhatItOwes() throws Exception {
        HandDrivenStream h = new HandDrivenStream(4);  // the peer's window: our credits
        h.onWait = StreamCreditReturnTest::takeOurSendsOnly;
        h.output.write(new byte[3 * CHUNK], 0, 3 * CHUNK);  // three DATA Sends: 4 credits -> 1
        assertEquals(PeerWindow.RESERVE, h.writerCredits(), "DATA left the reserve");

        for (int round = 1; round <= 3; round++) {  // each time half our window is owed, it goes back
            h.receiveData(100);
            h.receiveData(100);  // appended behind the first: its buffer is owed at once
            while (h.input.available() > 0) {
                h.input.read(new byte[200], 0, 200, 0);
            }
            assertEquals(List.of(StreamHeader.CREDIT), h.sendsInFlight(), "round " + round + ": a CREDIT");
            assertEquals(0, h.creditsOwed(), "round " + round + ": returning both");
            assertEquals(PeerWindow.RESERVE, h.writerCredits(), "round " + round + ": and spending none");
            h.completeOldestSend();
        }
    }

    @Test
    void aCreditsBufferIsPostedAgainWithNothingOwedForIt() throws Exception {
        HandDrivenStream h = new HandDrivenStream(4);
        int posted = h.receiveQueue.size();

        h.receive(StreamHeader.CREDIT, 1);

        assertEquals(posted, h.receiveQueue.size(), "its buffer is posted again");
        assertEquals(0, h.creditsOwed(), "and the peer spent no credit on it");
        assertEquals(List.of(), h.sendsInFlight(), "nothing to answer");
        assertEquals(5, h.writerCredits(), "its credit counts for our writer");
    }

    @Test
    void finWaitsRatherThanSpendTheReserve() throws Exception {
        HandDrivenStream h = new HandDrivenStream(4);
        h.onWait = StreamCreditReturnTest::takeOurSendsOnly;
        h.output.write(new byte[3 * CHUNK], 0, 3 * CHUNK);  // 4 credits -> 1, the reserve
        int[] creditsWhenFinWaited = {-1};
        h.onWait = (stream, condition) -> {
            creditsWhenFinWaited[0] = stream.writerCredits();
            stream.output.creditsReturned(1);  // the peer's reader gets to one of our DATA Sends
        };

        h.output.shutdown();

        assertEquals(PeerWindow.RESERVE, creditsWhenFinWaited[0], "the FIN waited, holding only the reserve");
        assertEquals(List.of(StreamHeader.FIN),
                h.sendsInFlight(), "then it went");
        assertEquals(PeerWindow.RESERVE, h.writerCredits(), "and left the reserve");
    }

    /** A peer whose TCP takes our Sends but whose application reads nothing: no credit comes back. */
    private static void takeOurSendsOnly(HandDrivenStream stream, java.util.function.BooleanSupplier condition)
            throws ReflectiveOperationException {
        while (!condition.getAsBoolean() && !stream.inFlight.isEmpty()) {
            stream.completeOldestSend();
        }
    }
}
