package io.extsock.core.verbs;

import io.extsock.verbs.Access;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.RegionSlice;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkRequest;
import io.extsock.verbs.WriteRequest;
import java.util.Objects;

/**
 * Checks the local slices of a work request the application posts, before the engine touches
 * them: each must name a valid region of this connection's {@link MemoryRegistry}, with the right
 * its use needs, and lie within it. A failure is the detail string of the request's
 * {@code LOCAL_PROTECTION_ERROR} completion (as the verbs' local protection error, which siw
 * raises from its own check of every SGE).
 *
 * <ul>
 *   <li>gather sources (Send, RDMA Write) need no right: the engine only reads them;</li>
 *   <li>scatter targets (Receive) and RDMA Read sinks need {@link Access#LOCAL_WRITE}.</li>
 * </ul>
 * A request's own completeness (a Read without a source, say) is the engine's to check.
 *
 * <p>Allocation-free when everything is in order; a failure allocates its message.
 */
public final class LocalAccessCheck {

    private final MemoryRegistry registry;

    public LocalAccessCheck(MemoryRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** Checks every local slice of {@code request}; null when all are usable, else what is wrong. */
    public String check(WorkRequest request) {
        if (request instanceof SendRequest) {
            SendRequest send = (SendRequest) request;
            for (int i = 0; i < send.sliceCount(); i++) {
                String fault = check(send.slice(i), null);
                if (fault != null) {
                    return "Send gather entry " + i + ": " + fault;
                }
            }
        } else if (request instanceof WriteRequest) {
            WriteRequest write = (WriteRequest) request;
            for (int i = 0; i < write.sliceCount(); i++) {
                String fault = check(write.slice(i), null);
                if (fault != null) {
                    return "RDMA Write gather entry " + i + ": " + fault;
                }
            }
        } else if (request instanceof ReceiveRequest) {
            ReceiveRequest receive = (ReceiveRequest) request;
            for (int i = 0; i < receive.sliceCount(); i++) {
                String fault = check(receive.slice(i), Access.LOCAL_WRITE);
                if (fault != null) {
                    return "Receive scatter entry " + i + ": " + fault;
                }
            }
        } else if (request instanceof ReadRequest) {
            RegionSlice sink = ((ReadRequest) request).sink();
            String fault = sink == null ? null : check(sink, Access.LOCAL_WRITE);
            if (fault != null) {
                return "RDMA Read sink: " + fault;
            }
        }
        return null;
    }

    /**
     * Checks one slice.
     *
     * @param needed the right its use needs, or null for none
     * @return null when usable; else what is wrong
     */
    public String check(RegionSlice slice, Access needed) {
        MemoryRegion named = slice.region();
        if (!(named instanceof RegisteredRegion) || !((RegisteredRegion) named).belongsTo(registry)) {
            return "the slice names a region registered on another connection (or not by extsock): "
                    + named + "; each connection reaches only its own regions";
        }
        RegisteredRegion region = (RegisteredRegion) named;
        if (!region.isValid()) {
            return "region " + Stag.toString(region.stag()) + " is no longer valid (" + region
                    + "); register the buffer again";
        }
        if (needed != null && !region.allows(needed)) {
            return "region " + Stag.toString(region.stag()) + " lacks " + needed + " (registered with "
                    + region.access() + "), which " + use(needed) + " need";
        }
        long offset = slice.offset();
        int length = slice.length();
        if (offset < 0 || length < 0 || offset > region.length() - length) {
            return "slice [" + offset + ", +" + length + ") lies outside region " + Stag.toString(region.stag())
                    + " of " + region.length() + " bytes";
        }
        return null;
    }

    private static String use(Access right) {
        return right == Access.LOCAL_WRITE ? "receive buffers and RDMA Read sinks" : "remote accesses";
    }
}
