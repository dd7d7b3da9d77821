package io.extsock.core.rdmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.extsock.core.ddp.DdpConstants;
import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Random headers with fixed seeds: everything encoded decodes to what was encoded, and no byte
 * string, however hostile, makes the decoder do anything but succeed or throw
 * {@link ProtocolViolationException} with a cause. {@code -Dextsock.long=true} runs 100 times
 * as many.
 */
class RdmapHeaderPropertyTest {

    private static final int ITERATIONS = (Boolean.getBoolean("extsock.long") ? 100 : 1) * 20_000;
    private static final RdmapOpcode[] SEND_VARIANTS = {RdmapOpcode.SEND, RdmapOpcode.SEND_WITH_INVALIDATE,
        RdmapOpcode.SEND_WITH_SOLICITED_EVENT, RdmapOpcode.SEND_WITH_SOLICITED_EVENT_AND_INVALIDATE};

    private final RdmapSegmentHeader decoded = new RdmapSegmentHeader();
    private final ReadRequestHeader request = new ReadRequestHeader();
    private final TerminateHeader terminate = new TerminateHeader();
    private final ByteBuffer wire = ByteBuffer.allocate(256);

    @Test
    void everyEncodedHeaderDecodesToWhatWasEncoded() throws Exception {
        SplittableRandom random = new SplittableRandom(0x5eed_0002L);
        for (int i = 0; i < ITERATIONS; i++) {
            wire.clear();
            int kind = random.nextInt(5);
            boolean last = random.nextBoolean();
            int stag = random.nextInt();
            long to = random.nextLong();
            int msn = random.nextInt();
            long mo = random.nextLong(0, 0x1_0000_0000L);
            int payload = random.nextInt(0, 64);
            switch (kind) {
                case 0:
                    SegmentHeaders.putRdmaWrite(wire, last, stag, to);
                    break;
                case 1:
                    SegmentHeaders.putRdmaReadResponse(wire, last, stag, to);
                    break;
                case 2: {
                    RdmapOpcode variant = SEND_VARIANTS[random.nextInt(4)];
                    SegmentHeaders.putSend(wire, variant, variant.invalidatesStag() ? stag : 0, last, msn, mo);
                    break;
                }
                case 3:
                    request.set(stag, to, random.nextLong(0, 0x1_0000_0000L), random.nextInt(), random.nextLong());
                    RdmapHeaderEncoder.putRdmaReadRequest(wire, msn, request);
                    payload = 0;
                    break;
                default:
                    randomTerminate(random);
                    RdmapHeaderEncoder.putTerminate(wire, msn, terminate);
                    payload = 0;
                    break;
            }
            int headerEnd = wire.position();
            wire.position(headerEnd + payload).flip();
            decoded.decode(wire);
            {
                assertEquals(headerEnd + payload, decoded.ddp().segmentLength());
                assertEquals(payload, decoded.ulpPayloadLength());
            }
            switch (kind) {
                case 0:
                case 1:
                    assertSame(kind == 0 ? RdmapOpcode.RDMA_WRITE : RdmapOpcode.RDMA_READ_RESPONSE, decoded.opcode());
                    assertEquals(last, decoded.ddp().last());
                    assertEquals(stag, decoded.ddp().stag());
                    assertEquals(to, decoded.ddp().taggedOffset());
                    break;
                case 2:
                    assertTrue(decoded.opcode().isSend());
                    assertEquals(last, decoded.ddp().last());
                    assertEquals(msn, decoded.ddp().messageSequenceNumber());
                    assertEquals(mo, decoded.ddp().messageOffset());
                    assertEquals(decoded.opcode().invalidatesStag() ? stag : 0, decoded.invalidateStag());
                    break;
                case 3:
                    assertSame(RdmapOpcode.RDMA_READ_REQUEST, decoded.opcode());
                    assertEquals(msn, decoded.ddp().messageSequenceNumber());
                    assertEquals(request, decoded.readRequest());
                    break;
                default:
                    assertSame(RdmapOpcode.TERMINATE, decoded.opcode());
                    TerminateHeader received = decoded.terminate();
                    assertSame(terminate.cause(), received.cause());
                    assertSame(TerminateControlLayout.RFC_5040, received.layout());
                    assertEquals(terminate.ddpHeaderIncluded(), received.hasTerminatedDdpHeader());
                    assertEquals(terminate.ddpSegmentLength(), received.ddpSegmentLength());
                    assertEquals(terminate.hasTerminatedReadRequest(), received.hasTerminatedReadRequest());
                    if (received.hasTerminatedReadRequest()) {
                        assertEquals(terminate.terminatedReadRequest(), received.terminatedReadRequest());
                    }
                    break;
            }
        }
    }

    @Test
    void randomOctetsNeverEscapeAsAnythingButProtocolViolations() {
        SplittableRandom random = new SplittableRandom(0x5eed_0003L);
        int decodedCount = 0;
        for (int i = 0; i < ITERATIONS; i++) {
            byte[] octets = new byte[random.nextInt(0, 80)];
            random.nextBytes(octets);
            if (octets.length > 1 && random.nextBoolean()) {
                // steer half of them past the first checks: DV 1, RV 1, a real opcode
                octets[0] = (byte) (octets[0] & 0xFC | 1);
                octets[1] = (byte) (0x40 | random.nextInt(8));
            }
            decodedCount += decodeOrViolation(ByteBuffer.wrap(octets)) ? 1 : 0;
        }
        assertTrue(decodedCount > 0, "some random segments are valid");
    }

    @Test
    void mutatedValidHeadersNeverEscapeAsAnythingButProtocolViolations() {
        SplittableRandom random = new SplittableRandom(0x5eed_0004L);
        for (int i = 0; i < ITERATIONS; i++) {
            wire.clear();
            switch (random.nextInt(3)) {
                case 0:
                    request.set(random.nextInt(), random.nextLong(), 300, random.nextInt(), random.nextLong());
                    RdmapHeaderEncoder.putRdmaReadRequest(wire, 1, request);
                    break;
                case 1:
                    randomTerminate(random);
                    RdmapHeaderEncoder.putTerminate(wire, 1, terminate);
                    break;
                default:
                    SegmentHeaders.putSend(wire, RdmapOpcode.SEND, 0, true, 1, 0);
                    wire.position(wire.position() + random.nextInt(0, 20));
                    break;
            }
            wire.flip();
            int flips = random.nextInt(1, 4);
            for (int f = 0; f < flips; f++) {
                int at = random.nextInt(wire.limit());
                wire.put(at, (byte) (wire.get(at) ^ 1 << random.nextInt(8)));
            }
            wire.limit(random.nextInt(wire.limit() + 1));
            decodeOrViolation(wire);
        }
    }

    private boolean decodeOrViolation(ByteBuffer segment) {
        try {
            decoded.decode(segment);
            assertNotNull(decoded.opcode());
            assertTrue(decoded.ulpPayloadOffset() + decoded.ulpPayloadLength() <= segment.remaining());
            return true;
        } catch (ProtocolViolationException e) {
            assertNotNull(e.terminateCause());
            return false;
        } catch (RuntimeException e) {
            fail("decoding " + io.extsock.core.ddp.WireHex.hex(segment) + " threw " + e, e);
            return false;
        }
    }

    private void randomTerminate(SplittableRandom random) {
        TerminateCause[] causes = TerminateCause.values();
        terminate.reset(causes[random.nextInt(causes.length)]);
        if (random.nextBoolean()) {
            ByteBuffer failed = ByteBuffer.allocate(DdpConstants.UNTAGGED_HEADER_LENGTH + 40);
            if (random.nextBoolean()) {
                SegmentHeaders.putRdmaWrite(failed, random.nextBoolean(), random.nextInt(), random.nextLong());
            } else {
                SegmentHeaders.putSend(failed, RdmapOpcode.SEND, 0, true, random.nextInt(), 0);
            }
            terminate.includeTerminatedSegment(failed, 0, failed.position() + random.nextInt(0, 40));
        }
        if (random.nextBoolean()) {
            request.set(random.nextInt(), random.nextLong(), random.nextLong(0, 0x1_0000_0000L), random.nextInt(),
                    random.nextLong());
            terminate.includeTerminatedReadRequest(request);
        }
    }
}
