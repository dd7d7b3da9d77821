package io.extsock.rdma.provider;

import io.extsock.rdma.ffi.RdmaConstants;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;

/**
 * A device's work completion status ({@code enum ibv_wc_status}) as extsock's {@link
 * CompletionStatus} and {@link CompletionCause}. A device reports no Terminate's layer, type and
 * code to user space, so a remote error's cause is the connection's loss, not a Terminate.
 */
final class CompletionMapping {

    private CompletionMapping() {
    }

    /**
     * @param wcStatus the completion's {@code ibv_wc_status}
     * @return the status extsock's software engine gives the same failure
     */
    static CompletionStatus status(int wcStatus) {
        return switch (wcStatus) {
            case RdmaConstants.IBV_WC_SUCCESS -> CompletionStatus.SUCCESS;
            case RdmaConstants.IBV_WC_LOC_LEN_ERR -> CompletionStatus.LOCAL_LENGTH_ERROR;
            case RdmaConstants.IBV_WC_LOC_PROT_ERR, RdmaConstants.IBV_WC_LOC_ACCESS_ERR ->
                    CompletionStatus.LOCAL_PROTECTION_ERROR;
            case RdmaConstants.IBV_WC_WR_FLUSH_ERR -> CompletionStatus.FLUSHED;
            case RdmaConstants.IBV_WC_REM_ACCESS_ERR, RdmaConstants.IBV_WC_REM_INV_RD_REQ_ERR ->
                    CompletionStatus.REMOTE_ACCESS_ERROR;
            case RdmaConstants.IBV_WC_REM_OP_ERR, RdmaConstants.IBV_WC_REM_INV_REQ_ERR,
                 RdmaConstants.IBV_WC_REM_ABORT_ERR, RdmaConstants.IBV_WC_BAD_RESP_ERR ->
                    CompletionStatus.REMOTE_OPERATION_ERROR;
            default -> CompletionStatus.LOCAL_OPERATION_ERROR;
        };
    }

    /**
     * @param status         the mapped status
     * @param closedLocally  whether the application closed the connection before this completion
     * @return why the request ended so
     */
    static CompletionCause cause(CompletionStatus status, boolean closedLocally) {
        return switch (status) {
            case SUCCESS -> CompletionCause.NONE;
            case LOCAL_LENGTH_ERROR, LOCAL_PROTECTION_ERROR -> CompletionCause.LOCAL_CHECK;
            case FLUSHED -> closedLocally ? CompletionCause.CLOSED : CompletionCause.CONNECTION_LOST;
            default -> closedLocally ? CompletionCause.CLOSED : CompletionCause.CONNECTION_LOST;
        };
    }

    /**
     * @param access extsock's rights
     * @return the {@code IBV_ACCESS_*} flags: a remote write right needs local write too (verbs.h)
     */
    static int accessFlags(java.util.Set<io.extsock.verbs.Access> access) {
        int flags = 0;
        if (access.contains(io.extsock.verbs.Access.LOCAL_WRITE)) {
            flags |= RdmaConstants.IBV_ACCESS_LOCAL_WRITE;
        }
        if (access.contains(io.extsock.verbs.Access.REMOTE_WRITE)) {
            flags |= RdmaConstants.IBV_ACCESS_REMOTE_WRITE | RdmaConstants.IBV_ACCESS_LOCAL_WRITE;
        }
        if (access.contains(io.extsock.verbs.Access.REMOTE_READ)) {
            flags |= RdmaConstants.IBV_ACCESS_REMOTE_READ;
        }
        return flags;
    }
}
