package io.extsock.core.oracle;

import io.extsock.core.rdmap.RdmapOpcode;
import io.extsock.core.rdmap.RdmapSegmentHeader;
import io.extsock.core.rdmap.ReadRequestHeader;
import io.extsock.core.rdmap.SegmentSink;
import io.extsock.core.terminate.TerminateCause;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** What one end of the fixture received: message kinds and sizes, Read Requests, Terminates. */
final class RecordingSink implements SegmentSink {

    /** One received message. */
    record Received(RdmapOpcode opcode, long length, ReadRequestHeader readRequest, TerminateCause cause) {
    }

    final List<Received> messages = new ArrayList<>();
    private final ByteBuffer scratch = ByteBuffer.allocate(65536);
    private long messageLength;

    @Override
    public ByteBuffer segmentStarted(RdmapSegmentHeader header) {
        int payload = header.ulpPayloadLength();
        messageLength += payload;
        return payload == 0 ? null : scratch.clear().limit(payload);
    }

    @Override
    public void segmentComplete(RdmapSegmentHeader header) {
        if (!header.ddp().last()) {
            return;
        }
        RdmapOpcode opcode = header.opcode();
        ReadRequestHeader request = opcode == RdmapOpcode.RDMA_READ_REQUEST
                ? new ReadRequestHeader().copyFrom(header.readRequest()) : null;
        TerminateCause cause = opcode == RdmapOpcode.TERMINATE ? header.terminate().cause() : null;
        messages.add(new Received(opcode, messageLength, request, cause));
        messageLength = 0;
    }
}
