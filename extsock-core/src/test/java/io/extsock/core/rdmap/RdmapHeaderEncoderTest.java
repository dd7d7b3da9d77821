package io.extsock.core.rdmap;

import static io.extsock.core.ddp.WireHex.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.extsock.core.terminate.TerminateCause;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class RdmapHeaderEncoderTest {

    private final ByteBuffer dst = ByteBuffer.allocate(128);

    @Test
    void rdmaWriteLastSegment_wireMd() {
        SegmentHeaders.putRdmaWrite(dst, true, 0x1234abcd, 0x1000);
        assertEquals(hex("c1 40 1234abcd 0000000000001000"), written());
    }

    @Test
    void rdmaWriteMiddleSegment() {
        SegmentHeaders.putRdmaWrite(dst, false, 0x1234abcd, 0x1000);
        assertEquals(hex("81 40 1234abcd 0000000000001000"), written());
    }

    @Test
    void readRequestIsOneUntaggedSegmentOnQueueOne_wireMd() {
        ReadRequestHeader request = new ReadRequestHeader().set(0xcafe0001, 0x2000, 300, 0x5eed0002, 0x8000);
        RdmapHeaderEncoder.putRdmaReadRequest(dst, 1, request);
        assertEquals(hex("41 41 00000000 00000001 00000001 00000000"
                + " cafe0001 0000000000002000 0000012c 5eed0002 0000000000008000"), written());
    }

    @Test
    void readResponseSegment_wireMd() {
        SegmentHeaders.putRdmaReadResponse(dst, true, 0xcafe0001, 0x2000);
        assertEquals(hex("c1 42 cafe0001 0000000000002000"), written());
    }

    @Test
    void theSendSiwAccepted_wireMd() {
        SegmentHeaders.putSend(dst, RdmapOpcode.SEND, 0, true, 1, 0);
        dst.put(io.extsock.core.ddp.WireHex.bytes("0000000010000000 00c0ffee 00000040"));
        assertEquals(hex("41 43 00000000 00000000 00000001 00000000 0000000010000000 00c0ffee 00000040"), written());
    }

    @Test
    void sendVariantsCarryTheirOpcodeAndInvalidateStag_rfc5040_4_1() {
        SegmentHeaders.putSend(dst, RdmapOpcode.SEND_WITH_INVALIDATE, 0x0badf00d, false, 2, 1482);
        SegmentHeaders.putSend(dst, RdmapOpcode.SEND_WITH_SOLICITED_EVENT, 0, true, 3, 0);
        SegmentHeaders.putSend(dst, RdmapOpcode.SEND_WITH_SOLICITED_EVENT_AND_INVALIDATE, 7, true, 4, 0);
        assertEquals(hex("01 44 0badf00d 00000000 00000002 000005ca"
                + "41 45 00000000 00000000 00000003 00000000"
                + "41 46 00000007 00000000 00000004 00000000"), written());
    }

    @Test
    void terminateForTheSendSiwHadNoBufferFor_rfc5040_4_8() {
        ByteBuffer failed = io.extsock.core.ddp.WireHex.buffer("41 43 00000000 00000000 00000001 00000000 00c0ffee");
        TerminateHeader terminate = new TerminateHeader().reset(TerminateCause.DDP_UNTAGGED_NO_BUFFER);
        terminate.includeTerminatedSegment(failed, 0, failed.remaining());
        RdmapHeaderEncoder.putTerminate(dst, 1, terminate);
        assertEquals(hex("41 47 00000000 00000002 00000001 00000000"
                + "12 02 c0 00" + "0016" + "41 43 00000000 00000000 00000001 00000000"), written());
    }

    @Test
    void terminateWithoutCopiesForAnMpaCrcError_rfc5040_4_8() {
        RdmapHeaderEncoder.putTerminate(dst, 1, new TerminateHeader().reset(TerminateCause.LLP_MPA_CRC));
        assertEquals(hex("41 47 00000000 00000002 00000001 00000000 20 02 00 00"), written());
    }

    @Test
    void terminateNeedsACause() {
        assertThrows(IllegalStateException.class, () -> RdmapHeaderEncoder.putTerminate(dst, 1, new TerminateHeader()));
        assertEquals(0, dst.position());
    }

    private String written() {
        return io.extsock.core.ddp.WireHex.hex(dst.flip());
    }
}
