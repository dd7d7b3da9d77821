package io.extsock.core.rdmap;

import static io.extsock.core.ddp.DdpConstants.QN_READ_REQUEST;
import static io.extsock.core.ddp.DdpConstants.QN_TERMINATE;

import io.extsock.core.ddp.DdpHeaderEncoder;
import java.nio.ByteBuffer;

/**
 * Writes the complete DDP and RDMAP headers of the two single-segment RDMAP messages, the Read
 * Request and the Terminate, at a caller-supplied buffer's position, advancing it; allocation
 * free. The DDP fields follow RFC 5040 section 4.1 Figure 4 (T bit and queue per opcode) and
 * reserved bits are zero.
 *
 * <p>Writes, Read Responses and Sends, which may take many segments, are cut by {@link
 * io.extsock.core.ddp.DdpSegmenter} with {@link RdmapConstants#controlField} instead.
 */
public final class RdmapHeaderEncoder {

    private RdmapHeaderEncoder() {
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
