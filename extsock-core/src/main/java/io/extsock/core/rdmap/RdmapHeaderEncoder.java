package io.extsock.core.rdmap;

import static io.extsock.core.ddp.DdpConstants.QN_READ_REQUEST;
import static io.extsock.core.ddp.DdpConstants.QN_SEND;
import static io.extsock.core.ddp.DdpConstants.QN_TERMINATE;

import io.extsock.core.ddp.DdpHeaderEncoder;
import java.nio.ByteBuffer;

/**
 * Writes the complete DDP and RDMAP headers of each RDMAP message kind at a caller-supplied
 * buffer's position, advancing it; allocation free. The DDP fields follow RFC 5040 section 4.1
 * Figure 4 (T bit and queue per opcode), reserved bits are zero and the Invalidate STag field
 * is zero for messages that invalidate nothing.
 *
 * <p>Multi-segment Writes, Read Responses and Sends are cut by
 * {@link io.extsock.core.ddp.DdpSegmenter} with {@link RdmapConstants#controlField}; these
 * methods write one segment's header, given its L bit and TO or MO.
 */
public final class RdmapHeaderEncoder {

    private RdmapHeaderEncoder() {
    }

    /** One segment of an RDMA Write: 14 octets (RFC 5040 section 4.3). */
    public static void putRdmaWrite(ByteBuffer dst, boolean last, int sinkStag, long sinkTaggedOffset) {
        DdpHeaderEncoder.putTagged(dst, last, RdmapConstants.controlField(RdmapOpcode.RDMA_WRITE), sinkStag,
                sinkTaggedOffset);
    }

    /**
     * A whole RDMA Read Request: the 18-octet untagged header on the Read Request queue, L set,
     * MO 0, then the 28-octet Read Request header (RFC 5040 section 4.4).
     */
    public static void putRdmaReadRequest(ByteBuffer dst, int messageSequenceNumber, ReadRequestHeader request) {
        if (dst.remaining() < io.extsock.core.ddp.DdpConstants.UNTAGGED_HEADER_LENGTH
                + RdmapConstants.READ_REQUEST_HEADER_LENGTH) {
            throw new java.nio.BufferOverflowException();
        }
        DdpHeaderEncoder.putUntagged(dst, true, RdmapConstants.controlField(RdmapOpcode.RDMA_READ_REQUEST), 0,
                QN_READ_REQUEST, messageSequenceNumber, 0);
        request.put(dst);
    }

    /** One segment of an RDMA Read Response: 14 octets, to the Read Request's sink (RFC 5040 section 4.5). */
    public static void putRdmaReadResponse(ByteBuffer dst, boolean last, int sinkStag, long sinkTaggedOffset) {
        DdpHeaderEncoder.putTagged(dst, last, RdmapConstants.controlField(RdmapOpcode.RDMA_READ_RESPONSE), sinkStag,
                sinkTaggedOffset);
    }

    /**
     * One segment of a Send variant: 18 octets on the Send queue (RFC 5040 sections 4.6 and
     * 4.7). {@code invalidateStag} is sent for the two invalidate variants and must be 0 for
     * the others.
     */
    public static void putSend(ByteBuffer dst, RdmapOpcode sendVariant, int invalidateStag, boolean last,
            int messageSequenceNumber, long messageOffset) {
        if (!sendVariant.isSend()) {
            throw new IllegalArgumentException(sendVariant + " is not a Send variant");
        }
        if (!sendVariant.invalidatesStag() && invalidateStag != 0) {
            throw new IllegalArgumentException(sendVariant + " invalidates nothing; its Invalidate STag field is 0"
                    + " (RFC 5040 section 4.1)");
        }
        DdpHeaderEncoder.putUntagged(dst, last, RdmapConstants.controlField(sendVariant), invalidateStag, QN_SEND,
                messageSequenceNumber, messageOffset);
    }

    /**
     * A whole Terminate: the 18-octet untagged header on the Terminate queue, L set, MO 0, then
     * the Terminate header (RFC 5040 sections 4.8 and 5.4).
     */
    public static void putTerminate(ByteBuffer dst, int messageSequenceNumber, TerminateHeader terminate) {
        if (terminate.cause() == null) {
            throw new IllegalStateException("the Terminate has no cause to send: call reset(cause) first");
        }
        if (dst.remaining() < io.extsock.core.ddp.DdpConstants.UNTAGGED_HEADER_LENGTH + terminate.encodedLength()) {
            throw new java.nio.BufferOverflowException();
        }
        DdpHeaderEncoder.putUntagged(dst, true, RdmapConstants.controlField(RdmapOpcode.TERMINATE), 0, QN_TERMINATE,
                messageSequenceNumber, 0);
        terminate.put(dst);
    }
}
