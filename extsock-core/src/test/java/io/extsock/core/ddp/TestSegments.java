package io.extsock.core.ddp;

import io.extsock.core.terminate.ProtocolViolationException;
import java.nio.ByteBuffer;

/** Builds parsed DDP segment headers for bookkeeping tests: encoder, then parser. */
final class TestSegments {

    static final int SEND_CONTROL = 0x43;
    static final int WRITE_CONTROL = 0x40;

    private TestSegments() {
    }

    static DdpSegmentHeader untagged(int queue, int msn, long mo, int payload, boolean last) {
        ByteBuffer segment = ByteBuffer.allocate(DdpConstants.UNTAGGED_HEADER_LENGTH + payload);
        DdpHeaderEncoder.putUntagged(segment, last, SEND_CONTROL, 0, queue, msn, mo);
        return parse(segment);
    }

    static DdpSegmentHeader tagged(int stag, long to, int payload, boolean last) {
        ByteBuffer segment = ByteBuffer.allocate(DdpConstants.TAGGED_HEADER_LENGTH + payload);
        DdpHeaderEncoder.putTagged(segment, last, WRITE_CONTROL, stag, to);
        return parse(segment);
    }

    private static DdpSegmentHeader parse(ByteBuffer segment) {
        try {
            return new DdpSegmentHeader().parse(segment.clear());
        } catch (ProtocolViolationException e) {
            throw new AssertionError(e);
        }
    }
}
