package io.extsock.core.rdmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.mpa.FpduFramer;
import io.extsock.core.mpa.GatherWrite;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class MessageWriterTest {

    @Test
    @DisplayName("RFC 5041 section 5.2: a message is cut to the MULPDU; a segment limit frames that many per call")
    void segmentLimitFramesOneFpduPerCall() {
        int mulpdu = 1000;
        MessageWriter writer = new MessageWriter(new FpduFramer(true, false), mulpdu);
        GatherWrite gather = new GatherWrite(16, 4096);
        ByteBuffer[] payload = {ByteBuffer.allocate(3000)};
        writer.startSend(RdmapOpcode.SEND, 0, 1, payload, 0, 1);
        // 3000 octets in untagged segments of at most 1000 - 18 = 982 payload octets: 4 segments.
        int[] payloads = {982, 982, 982, 54};
        for (int i = 0; i < payloads.length; i++) {
            boolean done = writer.writeTo(gather, 1);
            assertEquals(i == payloads.length - 1, done, "call " + i);
            int ulpdu = 18 + payloads[i];
            assertEquals(2 + ulpdu + FpduFramer.padLength(ulpdu) + 4, gather.remaining(), "FPDU " + i);
            gather.reset();
        }
        assertFalse(writer.inProgress());
        assertEquals(3000, payload[0].remaining(), "the application's buffer is untouched");
    }

    @Test
    void aMessageMustBeFinishedBeforeTheNextStarts() {
        MessageWriter writer = new MessageWriter(new FpduFramer(false, false), 1000);
        ByteBuffer[] payload = {ByteBuffer.allocate(5000)};
        writer.startWrite(7, 0, payload, 0, 1);
        assertThrows(IllegalStateException.class, () -> writer.startWrite(7, 0, payload, 0, 1));
        assertTrue(writer.writeTo(new GatherWrite(64, 4096)));
        writer.startSend(RdmapOpcode.SEND, 0, 1, payload, 0, 1);
        assertThrows(IllegalArgumentException.class,
                () -> new MessageWriter(new FpduFramer(false, false), 1000)
                        .startSend(RdmapOpcode.SEND, 5, 1, payload, 0, 1));
    }
}
