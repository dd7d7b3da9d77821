package io.extsock.core.rdmap;

import io.extsock.core.terminate.TerminateCause;
import java.util.Arrays;
import java.util.Objects;

/**
 * One RDMAP message as the round-trip tests see it: what was written, or what was read back.
 * Tagged messages carry STag and TO, untagged ones their MSN; Read Requests their header,
 * Terminates their cause.
 */
final class StreamMessage {

    final RdmapOpcode opcode;
    final int stag;
    final long taggedOffset;
    final int messageSequenceNumber;
    final int invalidateStag;
    final ReadRequestHeader readRequest;
    final TerminateCause cause;
    final byte[] payload;

    StreamMessage(RdmapOpcode opcode, int stag, long taggedOffset, int messageSequenceNumber, int invalidateStag,
                  ReadRequestHeader readRequest, TerminateCause cause, byte[] payload) {
        this.opcode = opcode;
        this.stag = stag;
        this.taggedOffset = taggedOffset;
        this.messageSequenceNumber = messageSequenceNumber;
        this.invalidateStag = invalidateStag;
        this.readRequest = readRequest;
        this.cause = cause;
        this.payload = payload;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof StreamMessage)) {
            return false;
        }
        StreamMessage m = (StreamMessage) o;
        return opcode == m.opcode && stag == m.stag && taggedOffset == m.taggedOffset
                && messageSequenceNumber == m.messageSequenceNumber && invalidateStag == m.invalidateStag
                && Objects.equals(readRequest, m.readRequest) && cause == m.cause && Arrays.equals(payload, m.payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(opcode, stag, taggedOffset, messageSequenceNumber, Arrays.hashCode(payload));
    }

    @Override
    public String toString() {
        return opcode + "[stag=" + Integer.toHexString(stag) + ", to=" + taggedOffset + ", msn=" + messageSequenceNumber
                + ", inv=" + Integer.toHexString(invalidateStag) + ", rr=" + readRequest + ", cause=" + cause
                + ", payload=" + (payload == null ? "-" : payload.length + " octets") + "]";
    }
}
