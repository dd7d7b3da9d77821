package io.extsock.core.rdmap;

import static io.extsock.core.ddp.DdpConstants.QN_SEND;

import io.extsock.core.ddp.DdpHeaderEncoder;
import java.nio.ByteBuffer;

/**
 * One segment's DDP and RDMAP headers of a Write, a Read Response or a Send, written by hand
 * for tests that build a peer's bytes segment by segment. The engine itself cuts these
 * messages with {@link io.extsock.core.ddp.DdpSegmenter}; both go through the same {@link
 * DdpHeaderEncoder} and {@link RdmapConstants#controlField}, which are what the tests check.
 */
public final class SegmentHeaders {

    private SegmentHeaders() {
    }

    /** One segment of an RDMA Write: 14 octets (RFC 5040 section 4.3). */
    public static void putRdmaWrite(ByteBuffer dst, boolean last, int sinkStag, long sinkTaggedOffset) {
        DdpHeaderEncoder.putTagged(dst, last, RdmapConstants.controlField(RdmapOpcode.RDMA_WRITE), sinkStag,
                sinkTaggedOffset);
    }

    /** One segment of an RDMA Read Response: 14 octets, to the Read Request's sink (RFC 5040 section 4.5). */
    public static void putRdmaReadResponse(ByteBuffer dst, boolean last, int sinkStag, long sinkTaggedOffset) {
        DdpHeaderEncoder.putTagged(dst, last, RdmapConstants.controlField(RdmapOpcode.RDMA_READ_RESPONSE), sinkStag,
                sinkTaggedOffset);
    }

    /**
     * One segment of a Send variant: 18 octets on the Send queue (RFC 5040 sections 4.6 and
     * 4.7), with the Invalidate STag field as given (a hostile peer's tests set it where the
     * RFC says 0).
     */
    public static void putSend(ByteBuffer dst, RdmapOpcode sendVariant, int invalidateStag, boolean last,
                               int messageSequenceNumber, long messageOffset) {
        DdpHeaderEncoder.putUntagged(dst, last, RdmapConstants.controlField(sendVariant), invalidateStag, QN_SEND,
                messageSequenceNumber, messageOffset);
    }
}
