package io.extsock.core.rdmap;

import static io.extsock.core.rdmap.RdmapConstants.OPCODE_BITS;
import static io.extsock.core.rdmap.RdmapConstants.RDMAP_VERSION;
import static io.extsock.core.rdmap.RdmapConstants.READ_REQUEST_HEADER_LENGTH;
import static io.extsock.core.rdmap.RdmapConstants.RESERVED_BITS;
import static io.extsock.core.rdmap.RdmapConstants.VERSION_BITS;
import static io.extsock.core.rdmap.RdmapConstants.VERSION_SHIFT;

import io.extsock.core.ddp.DdpSegmentHeader;
import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import java.nio.ByteBuffer;

/**
 * One received DDP segment's headers, decoded and checked: the DDP header, the RDMAP control
 * field and, for Read Requests and Terminates, the RDMAP header after it. A typed description
 * to dispatch on; reused for every segment, allocation free.
 *
 * <p>Checks, in order (all stateless; MSN, MO and STag checks need stream state and belong to
 * {@link io.extsock.core.ddp.DdpReceiveBookkeeping}):
 * <ol>
 *   <li>The DDP header ({@link DdpSegmentHeader#parse}): version, length, queue number.</li>
 *   <li>RV is 01b, else RDMAP "invalid RDMAP version" (RFC 5040 section 7.2 check 3). Before
 *       the opcode, whose meaning depends on the version. RFC 5040 section 4.1 also calls 00b
 *       valid, for RDMA Consortium peers whose MPA is revision 0; our MPA speaks revisions 1
 *       and 2 only, so on our streams only 01b is.</li>
 *   <li>The opcode is assigned and supported, else "unexpected opcode" (RFC 5040 section 7.2
 *       check 2; for RFC 7306's opcodes, RFC 7306 section 1.1).</li>
 *   <li>The T bit is the one Figure 4 of RFC 5040 section 4.1 gives the opcode, else
 *       "unexpected opcode": a Send in a tagged segment, a Write in an untagged one.</li>
 *   <li>An untagged message names its opcode's queue, else DDP "invalid QN" (RFC 5040 sections
 *       4.1 and 5.2.1, 5.3, 5.4; the code Linux siw uses for a Send on another queue).</li>
 *   <li>A Read Request is one segment (L set) carrying exactly its 28-octet header (RFC 5040
 *       sections 4.2 and 4.4: no ULP payload); a Terminate is one segment carrying at least its
 *       4-octet control word (section 4.8). Otherwise "catastrophic error, localized to RDMAP
 *       stream": RDMAP has no code for a malformed header, and RFC 7306 section 8.2 uses this
 *       one for a malformed field. A nonzero MO in either is DDP "invalid MO" (RFC 5041
 *       section 4.3).</li>
 * </ol>
 * Ignored as the RFCs require: the RDMAP reserved bits (RFC 5040 section 4.1: "ignored by the
 * receiver"), and RsvdULP[8:39] of messages that invalidate nothing (section 4.1: "ignored by
 * the receiver"). Both are exposed for diagnostics.
 */
public final class RdmapSegmentHeader {

    private final DdpSegmentHeader ddp = new DdpSegmentHeader();
    private final ReadRequestHeader readRequest = new ReadRequestHeader();
    private final TerminateHeader terminate = new TerminateHeader();
    private RdmapOpcode opcode;
    private int ulpPayloadOffset;
    private int ulpPayloadLength;

    /** Decodes the segment between the buffer's position and limit; the position does not move. */
    public RdmapSegmentHeader decode(ByteBuffer segment) throws ProtocolViolationException {
        return decode(segment, segment.position(), segment.remaining());
    }

    /** Decodes the DDP segment of {@code segmentLength} octets (the MPA ULPDU) at {@code offset}. */
    public RdmapSegmentHeader decode(ByteBuffer buffer, int offset, int segmentLength)
            throws ProtocolViolationException {
        opcode = null;
        ddp.parse(buffer, offset, segmentLength);
        int control = ddp.rdmapControl();
        int version = (control & VERSION_BITS) >>> VERSION_SHIFT;
        if (version != RDMAP_VERSION) {
            throw new ProtocolViolationException(TerminateCause.RDMAP_INVALID_VERSION,
                    "RDMAP version " + version + "; this stream speaks version 1 (RFC 5040 sections 4.1 and 7.2)");
        }
        RdmapOpcode received = RdmapOpcode.fromWire(control & OPCODE_BITS);
        if (received == null) {
            throw new ProtocolViolationException(TerminateCause.RDMAP_UNEXPECTED_OPCODE,
                    String.format("opcode 0x%X is not assigned (RFC 5040 section 4.1 Figure 4, RFC 6580 section 3.4)",
                            control & OPCODE_BITS));
        }
        if (!received.supported()) {
            throw new ProtocolViolationException(TerminateCause.RDMAP_UNEXPECTED_OPCODE,
                    received + " (RFC 7306) is not supported here; RFC 7306 section 1.1 has such a peer report"
                            + " an unexpected opcode");
        }
        if (received.tagged() != ddp.tagged()) {
            throw new ProtocolViolationException(TerminateCause.RDMAP_UNEXPECTED_OPCODE,
                    received + " in " + (ddp.tagged() ? "a tagged" : "an untagged") + " DDP segment; it must be "
                            + (received.tagged() ? "tagged" : "untagged") + " (RFC 5040 section 4.1 Figure 4)");
        }
        if (!received.tagged() && ddp.queueNumber() != received.queueNumber()) {
            throw new ProtocolViolationException(TerminateCause.DDP_UNTAGGED_INVALID_QN,
                    received + " on queue " + Integer.toUnsignedString(ddp.queueNumber()) + "; it belongs on queue "
                            + received.queueNumber() + " (RFC 5040 section 4.1 Figure 4)");
        }
        int headerEnd = offset + ddp.headerLength();
        int afterDdp = ddp.payloadLength();
        ulpPayloadOffset = ddp.headerLength();
        ulpPayloadLength = afterDdp;
        if (received == RdmapOpcode.RDMA_READ_REQUEST) {
            requireSingleSegment(received);
            if (afterDdp != READ_REQUEST_HEADER_LENGTH) {
                throw new ProtocolViolationException(TerminateCause.RDMAP_CATASTROPHIC_STREAM,
                        "RDMA Read Request carries " + afterDdp + " octets after its DDP header; its header is"
                                + " exactly 28 and no payload is allowed (RFC 5040 sections 4.2 and 4.4)");
            }
            readRequest.read(buffer, headerEnd);
            ulpPayloadOffset = ddp.segmentLength();
            ulpPayloadLength = 0;
        } else if (received == RdmapOpcode.TERMINATE) {
            requireSingleSegment(received);
            terminate.decode(buffer, headerEnd, afterDdp);
            ulpPayloadOffset = ddp.segmentLength();
            ulpPayloadLength = 0;
        }
        opcode = received;
        return this;
    }

    private void requireSingleSegment(RdmapOpcode received) throws ProtocolViolationException {
        if (!ddp.last()) {
            throw new ProtocolViolationException(TerminateCause.RDMAP_CATASTROPHIC_STREAM,
                    received + " in a segment without L: its header must arrive whole in one segment"
                            + " (RFC 5040 sections 4.4 and 4.8)");
        }
        if (ddp.messageOffset() != 0) {
            throw new ProtocolViolationException(TerminateCause.DDP_UNTAGGED_INVALID_MO,
                    received + " at MO " + ddp.messageOffset() + "; a one-segment message is at MO 0"
                            + " (RFC 5041 section 4.3)");
        }
    }

    /** The DDP header. */
    public DdpSegmentHeader ddp() {
        return ddp;
    }

    /** The opcode; null if the last decode failed. */
    public RdmapOpcode opcode() {
        return opcode;
    }

    public int rdmapVersion() {
        return (ddp.rdmapControl() & VERSION_BITS) >>> VERSION_SHIFT;
    }

    /** The two reserved bits of the RDMAP control field, as received. */
    public int rdmapReservedBits() {
        return (ddp.rdmapControl() & RESERVED_BITS) >>> 4;
    }

    /** The STag to invalidate: valid only when {@code opcode().invalidatesStag()}. */
    public int invalidateStag() {
        return ddp.rsvdUlp2();
    }

    /** The Read Request header: valid only for {@link RdmapOpcode#RDMA_READ_REQUEST}. */
    public ReadRequestHeader readRequest() {
        return readRequest;
    }

    /** The Terminate header: valid only for {@link RdmapOpcode#TERMINATE}. */
    public TerminateHeader terminate() {
        return terminate;
    }

    /** Where the ULP payload (data to place or deliver) starts, counted from the segment's first octet. */
    public int ulpPayloadOffset() {
        return ulpPayloadOffset;
    }

    /** The ULP payload's length: 0 for Read Requests and Terminates, whose octets are RDMAP headers. */
    public int ulpPayloadLength() {
        return ulpPayloadLength;
    }

    @Override
    public String toString() {
        return (opcode == null ? "undecoded" : opcode.messageName()) + " " + ddp
                + (opcode == RdmapOpcode.RDMA_READ_REQUEST ? " " + readRequest : "")
                + (opcode == RdmapOpcode.TERMINATE ? " " + terminate : "")
                + (opcode != null && opcode.invalidatesStag() ? String.format(" invalidate=0x%08x", invalidateStag()) : "");
    }
}
