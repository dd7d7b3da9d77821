package io.extsock.core.verbs;

import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.WorkOpcode;
import java.nio.ByteBuffer;

/**
 * One entry of a connection's send queue: a Send, an RDMA Write or an RDMA Read, copied from
 * the application's request when it was posted (or made by the stream layer). Entries are
 * pooled and reused; all fields belong to the queue pair's lock until the entry is framed.
 */
final class SendWork {

    WorkOpcode opcode;
    long tag;
    WorkCompleter completer;

    /** Payload of a Send or Write: views of the gathered slices, positioned at their data. */
    final ByteBuffer[] payload = new ByteBuffer[io.extsock.verbs.WorkRequest.MAX_SLICES];
    int payloadCount;
    long length;

    /** Send variants: Solicited Event, Invalidate of the peer's STag. */
    boolean solicited;
    boolean invalidate;
    int invalidateStag;

    /** Write: the peer's STag and tagged offset. Read: the peer's source. */
    int remoteStag;
    long remoteOffset;

    /** Read: the local sink (region STag, offset within it); length is the read size. */
    int sinkStag;
    long sinkOffset;
    ByteBuffer sinkBuffer;

    /** Read: octets of the response placed so far. */
    long readPlaced;

    /** Set once the request finished; its completion waits for those posted before it. */
    boolean done;
    CompletionStatus status;
    String detail;

    /** Marks the entry finished; the queue pair reports it in send-queue order. */
    void finish(CompletionStatus status, String detail) {
        this.done = true;
        this.status = status;
        this.detail = detail;
    }

    void clear() {
        for (int i = 0; i < payloadCount; i++) {
            payload[i] = null;
        }
        payloadCount = 0;
        completer = null;
        sinkBuffer = null;
        length = 0;
        solicited = false;
        invalidate = false;
        invalidateStag = 0;
        remoteStag = 0;
        remoteOffset = 0;
        sinkStag = 0;
        sinkOffset = 0;
        readPlaced = 0;
        done = false;
        status = null;
        detail = null;
    }
}
