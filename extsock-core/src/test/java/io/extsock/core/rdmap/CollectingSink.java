package io.extsock.core.rdmap;

import io.extsock.core.ddp.DdpReceiveBookkeeping;
import io.extsock.core.ddp.DdpSegmentHeader;
import io.extsock.core.terminate.ProtocolViolationException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A test sink that checks every segment with DDP's receive bookkeeping (MSN, MO, TO and STag
 * continuity) before placing it, and reassembles the messages it received.
 */
final class CollectingSink implements SegmentSink {

    private final DdpReceiveBookkeeping bookkeeping = new DdpReceiveBookkeeping(
            (queueNumber, msn) -> Integer.MAX_VALUE,
            (stag, answer) -> answer.usable(0, Long.MAX_VALUE / 2));
    final List<StreamMessage> messages = new ArrayList<>();

    private final ByteArrayOutputStream untagged = new ByteArrayOutputStream();
    private final ByteArrayOutputStream tagged = new ByteArrayOutputStream();
    private long firstTaggedOffset = -1;
    private ByteBuffer placed;
    private boolean lastOfMessage;
    /** Segments whose headers reached this sink. */
    int segmentsStarted;

    @Override
    public ByteBuffer segmentStarted(RdmapSegmentHeader header) throws ProtocolViolationException {
        segmentsStarted++;
        boolean last = bookkeeping.accept(header.ddp());
        lastOfMessage = last;
        if (header.ddp().tagged() && firstTaggedOffset < 0) {
            firstTaggedOffset = header.ddp().taggedOffset();
        }
        placed = header.ulpPayloadLength() > 0 ? ByteBuffer.allocate(header.ulpPayloadLength()) : null;
        return placed;
    }

    @Override
    public void segmentComplete(RdmapSegmentHeader header) {
        DdpSegmentHeader ddp = header.ddp();
        ByteArrayOutputStream message = ddp.tagged() ? tagged : untagged;
        if (placed != null) {
            message.write(placed.array(), 0, placed.capacity());
        }
        if (!lastOfMessage) {
            return;
        }
        RdmapOpcode opcode = header.opcode();
        switch (opcode) {
            case RDMA_WRITE:
            case RDMA_READ_RESPONSE:
                messages.add(new StreamMessage(opcode, ddp.stag(), firstTaggedOffset, 0, 0, null, null,
                        message.toByteArray()));
                firstTaggedOffset = -1;
                break;
            case RDMA_READ_REQUEST:
                messages.add(new StreamMessage(opcode, 0, 0, ddp.messageSequenceNumber(), 0,
                        new ReadRequestHeader().copyFrom(header.readRequest()), null, null));
                break;
            case TERMINATE:
                messages.add(new StreamMessage(opcode, 0, 0, ddp.messageSequenceNumber(), 0, null,
                        header.terminate().cause(), null));
                break;
            default:
                messages.add(new StreamMessage(opcode, 0, 0, ddp.messageSequenceNumber(),
                        opcode.invalidatesStag() ? header.invalidateStag() : 0, null, null, message.toByteArray()));
        }
        message.reset();
    }
}
