package io.extsock.core.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Whatever a peer sends, the stream's own Sends never fill the queue pair's send queue (512
 * entries; posting beyond throws IllegalStateException, on the receive path for a credit
 * update). The peer here is driven by hand: its Sends are completed into the stream's receive
 * buffers as the queue pair's receive side would, and ours leave (complete) only when the test
 * says so, as to a peer that reads its socket only then.
 */
class StreamSendQueueBoundTest {

    /**
     * A peer that reads nothing and floods us with CREDIT messages, returning a credit on every
     * other one while that keeps our credits within any window: each one's buffer is posted
     * again at once and owes the peer nothing (PeerWindow.RESERVE), so none is answered, and
     * no credit update of ours piles up in the send queue.
     */
    @Test
    void aCreditFloodIsNotAnswered() throws Exception {
        HandDrivenStream h = new HandDrivenStream(IwarpStream.RECEIVE_BUFFERS);
        int posted = h.receiveQueue.size();
        for (int i = 0; i < 20_000; i++) {
            h.receive(StreamHeader.CREDIT, i % 2 == 0 && h.writerCredits() < 256 ? 1 : 0);
            assertEquals(0, h.inFlight.size(), "message " + i + ": a Send of ours answered it");
            assertEquals(posted, h.receiveQueue.size(), "message " + i + ": its buffer was not posted again");
        }
        assertTrue(h.queuePair.isConnected(), "credits within the window: nothing broken");
        assertEquals(0, h.creditsOwed(), "nothing owed for a CREDIT's buffer");
    }

    /**
     * A peer that announces (or returns) the most buffers it can have, 512: a writer with that
     * many credits posts at most MAX_DATA_SENDS_IN_FLIGHT DATA Sends before TCP takes them,
     * then waits for TCP, as a socket's write waits for room in its send buffer.
     */
    @Test
    void aWriterWithAWholeQueueOfCreditsLeavesRoomInTheSendQueue() throws Exception {
        HandDrivenStream h = new HandDrivenStream(IwarpStream.MAX_PEER_RECEIVE_BUFFERS);
        byte[] data = new byte[3 * PeerWindow.MAX_DATA_SENDS_IN_FLIGHT * (HandDrivenStream.BUFFER_SIZE - StreamHeader.LENGTH)];
        h.output.write(data, 0, data.length);
        assertEquals(PeerWindow.MAX_DATA_SENDS_IN_FLIGHT, h.driver.mostInFlightSeen,
                "the writer filled its share of the send queue, and no more, before it waited");
        assertEquals(0, h.inFlight.size(), "the write returned when TCP had every byte");
        assertEquals(3 * PeerWindow.MAX_DATA_SENDS_IN_FLIGHT, h.driver.sendsCompleted);
        assertTrue(h.queuePair.isConnected());
    }
}
