package io.extsock.core.rdmap;

import static io.extsock.core.rdmap.RdmapConstants.DDP_HEADER_INCLUDED_FLAG;
import static io.extsock.core.rdmap.RdmapConstants.DDP_SEGMENT_LENGTH_LENGTH;
import static io.extsock.core.rdmap.RdmapConstants.ERROR_CODE_SHIFT;
import static io.extsock.core.rdmap.RdmapConstants.RDMA_HEADER_INCLUDED_FLAG;
import static io.extsock.core.rdmap.RdmapConstants.SEGMENT_LENGTH_VALID_FLAG;
import static io.extsock.core.rdmap.RdmapConstants.TERMINATED_RDMA_HEADER_LENGTH;
import static io.extsock.core.rdmap.RdmapConstants.TERMINATE_CONTROL_LENGTH;

import io.extsock.core.ddp.DdpConstants;
import io.extsock.core.ddp.DdpSegmentHeader;
import io.extsock.core.ddp.NetworkOrder;
import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import java.nio.ByteBuffer;

/**
 * The Terminate header (RFC 5040 section 4.8; layout in {@link RdmapConstants}): why the peer
 * ends the stream, and optionally copies of the DDP header (with the segment's length) and the
 * Read Request header of the message that caused it. Mutable, reused, and allocation free after
 * construction: the copies live in fixed arrays of their largest size.
 *
 * <h2>Sending</h2>
 * {@link #reset(TerminateCause)}, then optionally {@link #includeTerminatedSegment} and
 * {@link #includeTerminatedReadRequest}, then {@link #put}. Output is always RFC 5040 layout,
 * reserved bits zero, M set together with D (we always know the segment length). Which copies
 * to include is the caller's policy (RFC 5040 section 4.8 Figure 10 and section 7.1).
 *
 * <h2>Receiving</h2>
 * {@link #decode} is liberal (RFC 5040 section 4.8 says reserved bits are "ignored on receive";
 * a Terminate ends the stream anyway, so we keep whatever it tells). The control word is read
 * in whichever of the two layouts of {@link TerminateControlLayout} makes sense:
 * <ol>
 *   <li>the RFC layout if it names a registered cause and its reserved bits are zero;</li>
 *   <li>else Linux siw's little-endian bit-field layout if that names a registered cause with
 *       zero reserved bits;</li>
 *   <li>else whichever layout names a registered cause, the RFC one first;</li>
 *   <li>else the RFC layout, with {@link #cause()} null and the raw values kept.</li>
 * </ol>
 * Rule 1 before 2 means a word that is sensible both ways reads the RFC way: siw's
 * {@code 20 06 00 00} (RDMAP, unexpected opcode) reads as LLP "insufficient IRD resources".
 * Rule 2 before 3 makes siw's {@code 11 00 03 00} (DDP invalid STag, M and D set) keep its
 * flags, which the RFC reading would put in reserved bits.
 *
 * <p>Copies are taken only when whole: if D is set, a 16-bit segment length, then a DDP
 * header whose T bit gives its length (14 or 18); if R is set, a 28-octet Read Request header
 * after that. A flag whose copy is missing or cut short is reported as set, with the copy
 * absent (siw sets R for a Send with Invalidate and sends no RDMA header, there being none).
 * Octets after the copies are ignored.
 */
public final class TerminateHeader {

    private TerminateCause cause;
    private TerminateControlLayout layout = TerminateControlLayout.RFC_5040;
    private int layer;
    private int errorType;
    private int errorCode;
    private boolean segmentLengthValid;
    private boolean ddpHeaderIncluded;
    private boolean rdmaHeaderIncluded;
    private int reservedBits;

    private int ddpSegmentLength = -1;
    private final byte[] ddpHeaderCopy = new byte[DdpConstants.UNTAGGED_HEADER_LENGTH];
    private final ByteBuffer ddpHeaderCopyView = ByteBuffer.wrap(ddpHeaderCopy);
    private int ddpHeaderCopyLength;
    private final DdpSegmentHeader terminatedDdpHeader = new DdpSegmentHeader();
    private boolean readRequestCopied;
    private final ReadRequestHeader terminatedReadRequest = new ReadRequestHeader();

    // ---- sending ----------------------------------------------------------------------------

    /** Starts a Terminate for {@code cause}, with no copies. */
    public TerminateHeader reset(TerminateCause cause) {
        this.cause = java.util.Objects.requireNonNull(cause, "cause");
        layout = TerminateControlLayout.RFC_5040;
        layer = cause.layer().wireValue();
        errorType = cause.errorType();
        errorCode = cause.errorCode();
        segmentLengthValid = false;
        ddpHeaderIncluded = false;
        rdmaHeaderIncluded = false;
        reservedBits = 0;
        ddpSegmentLength = -1;
        ddpHeaderCopyLength = 0;
        readRequestCopied = false;
        return this;
    }

    /**
     * Copies the header of the failed segment that starts at {@code offset} and sets M and D.
     *
     * @param segmentLength the failed segment's whole length (its MPA ULPDU_Length), reported in
     *     the DDP Segment Length field: the length of the DDP segment as RFC 5041 section 2.3
     *     defines one, header included (Linux siw reports the payload length there instead)
     * @return false, copying nothing, when the segment is too short to hold the header its T bit
     *     announces: then there is no header to report ("if possible", RFC 5040 section 4.8 Figure 10)
     */
    public boolean includeTerminatedSegment(ByteBuffer buffer, int offset, int segmentLength) {
        if (segmentLength < 0 || segmentLength > DdpConstants.MAX_SEGMENT_LENGTH) {
            throw new IllegalArgumentException("segment length out of 16 bits: " + segmentLength);
        }
        int available = Math.min(segmentLength, buffer.limit() - offset);
        if (available < 1) {
            return false;
        }
        int headerLength = DdpConstants.headerLength(NetworkOrder.getUnsignedByte(buffer, offset));
        if (available < headerLength) {
            return false;
        }
        for (int i = 0; i < headerLength; i++) {
            ddpHeaderCopy[i] = buffer.get(offset + i);
        }
        ddpHeaderCopyLength = headerLength;
        terminatedDdpHeader.readUnchecked(ddpHeaderCopyView, 0, headerLength);
        ddpSegmentLength = segmentLength;
        ddpHeaderIncluded = true;
        segmentLengthValid = true;
        return true;
    }

    /** Copies the Read Request the error concerns and sets R (RFC 5040 section 4.8). */
    public TerminateHeader includeTerminatedReadRequest(ReadRequestHeader readRequest) {
        terminatedReadRequest.copyFrom(readRequest);
        readRequestCopied = true;
        rdmaHeaderIncluded = true;
        return this;
    }

    /** The number of octets {@link #put} writes. */
    public int encodedLength() {
        return TERMINATE_CONTROL_LENGTH
                + (ddpHeaderIncluded ? DDP_SEGMENT_LENGTH_LENGTH + ddpHeaderCopyLength : 0)
                + (rdmaHeaderIncluded ? TERMINATED_RDMA_HEADER_LENGTH : 0);
    }

    /** Writes the header in RFC 5040 layout at the buffer's position and advances it. */
    public void put(ByteBuffer dst) {
        if (cause == null) {
            throw new IllegalStateException("no cause to send: call reset(cause) first");
        }
        if (dst.remaining() < encodedLength()) {
            throw new java.nio.BufferOverflowException();
        }
        int at = dst.position();
        int word = cause.controlBits() << ERROR_CODE_SHIFT
                | (segmentLengthValid ? SEGMENT_LENGTH_VALID_FLAG : 0)
                | (ddpHeaderIncluded ? DDP_HEADER_INCLUDED_FLAG : 0)
                | (rdmaHeaderIncluded ? RDMA_HEADER_INCLUDED_FLAG : 0);
        NetworkOrder.putInt(dst, at, word);
        at += TERMINATE_CONTROL_LENGTH;
        if (ddpHeaderIncluded) {
            NetworkOrder.putShort(dst, at, ddpSegmentLength);
            at += DDP_SEGMENT_LENGTH_LENGTH;
            for (int i = 0; i < ddpHeaderCopyLength; i++) {
                dst.put(at + i, ddpHeaderCopy[i]);
            }
            at += ddpHeaderCopyLength;
        }
        dst.position(at);
        if (rdmaHeaderIncluded) {
            terminatedReadRequest.put(dst);
        }
    }

    // ---- receiving --------------------------------------------------------------------------

    /**
     * Reads a received Terminate header of {@code length} octets (the Terminate's ULP payload)
     * at {@code offset}, by the rules in the class comment.
     *
     * @throws ProtocolViolationException when there is no room for the control word: RDMAP
     *     "catastrophic error, localized to RDMAP stream"
     */
    public TerminateHeader decode(ByteBuffer buffer, int offset, int length) throws ProtocolViolationException {
        if (length < TERMINATE_CONTROL_LENGTH) {
            throw new ProtocolViolationException(TerminateCause.RDMAP_CATASTROPHIC_STREAM,
                    "Terminate carries " + length + " octets after its DDP header; its control word alone is 4"
                            + " (RFC 5040 section 4.8)");
        }
        int word = NetworkOrder.getInt(buffer, offset);
        layout = chooseLayout(word);
        layer = layout.layer(word);
        errorType = layout.errorType(word);
        errorCode = layout.errorCode(word);
        cause = TerminateCause.fromWire(layer, errorType, errorCode);
        segmentLengthValid = layout.segmentLengthValid(word);
        ddpHeaderIncluded = layout.ddpHeaderIncluded(word);
        rdmaHeaderIncluded = layout.rdmaHeaderIncluded(word);
        reservedBits = layout.reservedBits(word);

        ddpSegmentLength = -1;
        ddpHeaderCopyLength = 0;
        readRequestCopied = false;
        int at = offset + TERMINATE_CONTROL_LENGTH;
        int end = offset + length;
        if (ddpHeaderIncluded && end - at >= DDP_SEGMENT_LENGTH_LENGTH) {
            ddpSegmentLength = NetworkOrder.getUnsignedShort(buffer, at);
            at += DDP_SEGMENT_LENGTH_LENGTH;
            int headerLength = at < end ? DdpConstants.headerLength(NetworkOrder.getUnsignedByte(buffer, at)) : 0;
            if (headerLength > 0 && end - at >= headerLength) {
                for (int i = 0; i < headerLength; i++) {
                    ddpHeaderCopy[i] = buffer.get(at + i);
                }
                ddpHeaderCopyLength = headerLength;
                terminatedDdpHeader.readUnchecked(ddpHeaderCopyView, 0, headerLength);
                at += headerLength;
            } else {
                at = end;
            }
        }
        if (rdmaHeaderIncluded && end - at >= TERMINATED_RDMA_HEADER_LENGTH) {
            terminatedReadRequest.read(buffer, at);
            readRequestCopied = true;
        }
        return this;
    }

    private static TerminateControlLayout chooseLayout(int word) {
        TerminateControlLayout rfc = TerminateControlLayout.RFC_5040;
        TerminateControlLayout siw = TerminateControlLayout.LITTLE_ENDIAN_BITFIELDS;
        boolean rfcNamesCause = namesCause(rfc, word);
        if (rfcNamesCause && rfc.reservedBits(word) == 0) {
            return rfc;
        }
        boolean siwNamesCause = namesCause(siw, word);
        if (siwNamesCause && siw.reservedBits(word) == 0) {
            return siw;
        }
        if (rfcNamesCause) {
            return rfc;
        }
        return siwNamesCause ? siw : rfc;
    }

    private static boolean namesCause(TerminateControlLayout layout, int word) {
        return TerminateCause.fromWire(layout.layer(word), layout.errorType(word), layout.errorCode(word)) != null;
    }

    // ---- fields -----------------------------------------------------------------------------

    /** The registered cause, or null when the received layer, type and code name none. */
    public TerminateCause cause() {
        return cause;
    }

    /** The layout the control word was read in; RFC 5040 for a header built to send. */
    public TerminateControlLayout layout() {
        return layout;
    }

    public int layer() {
        return layer;
    }

    public int errorType() {
        return errorType;
    }

    public int errorCode() {
        return errorCode;
    }

    /** M as received: the DDP Segment Length is valid. */
    public boolean segmentLengthValid() {
        return segmentLengthValid;
    }

    /** D as received: a DDP header copy is announced. */
    public boolean ddpHeaderIncluded() {
        return ddpHeaderIncluded;
    }

    /** R as received: a Read Request header copy is announced. */
    public boolean rdmaHeaderIncluded() {
        return rdmaHeaderIncluded;
    }

    /** The 13 reserved bits as received (ignored, RFC 5040 section 4.8). */
    public int reservedBits() {
        return reservedBits;
    }

    /** The DDP Segment Length field, or -1 when absent. */
    public int ddpSegmentLength() {
        return ddpSegmentLength;
    }

    /** Whether a whole copy of the terminated DDP header is present. */
    public boolean hasTerminatedDdpHeader() {
        return ddpHeaderCopyLength > 0;
    }

    /** The copied DDP header, read without judgment; meaningful only if {@link #hasTerminatedDdpHeader()}. */
    public DdpSegmentHeader terminatedDdpHeader() {
        return terminatedDdpHeader;
    }

    /** 14 or 18 when a copy is present, else 0. */
    public int terminatedDdpHeaderLength() {
        return ddpHeaderCopyLength;
    }

    /** Octet {@code index} of the copied DDP header, exactly as it travelled. */
    public int terminatedDdpHeaderOctet(int index) {
        if (index < 0 || index >= ddpHeaderCopyLength) {
            throw new IndexOutOfBoundsException(index);
        }
        return ddpHeaderCopy[index] & 0xFF;
    }

    /** Whether a whole copy of the terminated Read Request header is present. */
    public boolean hasTerminatedReadRequest() {
        return readRequestCopied;
    }

    public ReadRequestHeader terminatedReadRequest() {
        return terminatedReadRequest;
    }

    @Override
    public String toString() {
        return "Terminate " + (cause != null ? cause.toString()
                : String.format("unregistered (layer %d, type %d, code 0x%02X)", layer, errorType, errorCode))
                + (layout == TerminateControlLayout.RFC_5040 ? "" : " [" + layout + "]")
                + (segmentLengthValid ? " M" : "") + (ddpHeaderIncluded ? " D" : "") + (rdmaHeaderIncluded ? " R" : "")
                + (ddpSegmentLength >= 0 ? " segmentLength=" + ddpSegmentLength : "")
                + (hasTerminatedDdpHeader() ? " [" + terminatedDdpHeader + "]" : "")
                + (readRequestCopied ? " [" + terminatedReadRequest + "]" : "");
    }
}
