package io.extsock.core.verbs;

import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.RegionSlice;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkRequest;
import io.extsock.verbs.WriteRequest;

/**
 * What makes a request impossible to carry out whatever the memory holds: an unknown kind, an
 * RDMA Write without a target or longer than it, an RDMA Read without a source or a sink, or a
 * sink longer than its source. Such a request is the caller's mistake and is refused with an
 * {@link IllegalArgumentException} before anything is queued, so a posting list can be refused
 * whole. The memory checks (live regions, rights, bounds) are not here: a request that fails
 * those is posted and completes LOCAL_PROTECTION_ERROR in its turn.
 */
final class RequestShape {

    private RequestShape() {
    }

    /**
     * @return whether the request is a Receive (it takes room in the receive queue; every other
     *         kind in the send queue)
     * @throws IllegalArgumentException naming what the request lacks
     */
    static boolean check(WorkRequest request) {
        if (request instanceof SendRequest) {
            return false;
        }
        if (request instanceof ReceiveRequest) {
            return true;
        }
        if (request instanceof WriteRequest write) {
            checkWrite(write);
            return false;
        }
        if (request instanceof ReadRequest read) {
            checkRead(read);
            return false;
        }
        throw new IllegalArgumentException("unknown request: " + request);
    }

    private static void checkWrite(WriteRequest write) {
        if (write.target() == null) {
            throw new IllegalArgumentException("an RDMA Write needs a target: WriteRequest.target(remoteBuffer)");
        }
        long length = 0;
        for (int i = 0; i < write.sliceCount(); i++) {
            length += write.slice(i).length();
        }
        if (length > write.target().length()) {
            throw new IllegalArgumentException("an RDMA Write of " + length + " bytes does not fit its target "
                    + write.target());
        }
    }

    private static void checkRead(ReadRequest read) {
        if (read.source() == null || read.sink() == null) {
            throw new IllegalArgumentException("an RDMA Read needs a source and a sink: "
                    + "ReadRequest.source(remoteBuffer).sink(regionSlice)");
        }
        RegionSlice sink = read.sink();
        if (sink.length() > read.source().length()) {
            throw new IllegalArgumentException("the sink (" + sink.length() + " bytes) is longer than the source "
                    + read.source());
        }
    }
}
