package io.extsock.rdma.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.extsock.rdma.ffi.RdmaConstants;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A device's ibv_wc_status as extsock's statuses and causes, and extsock's rights as ibv_access_flags. */
class CompletionMappingTest {

    @Test
    void eachDeviceStatusIsTheSoftwareEnginesStatusForTheSameFailure() {
        assertEquals(CompletionStatus.SUCCESS, CompletionMapping.status(RdmaConstants.IBV_WC_SUCCESS));
        assertEquals(CompletionStatus.LOCAL_LENGTH_ERROR, CompletionMapping.status(RdmaConstants.IBV_WC_LOC_LEN_ERR));
        assertEquals(CompletionStatus.LOCAL_PROTECTION_ERROR,
                CompletionMapping.status(RdmaConstants.IBV_WC_LOC_PROT_ERR));
        assertEquals(CompletionStatus.LOCAL_PROTECTION_ERROR,
                CompletionMapping.status(RdmaConstants.IBV_WC_LOC_ACCESS_ERR));
        assertEquals(CompletionStatus.FLUSHED, CompletionMapping.status(RdmaConstants.IBV_WC_WR_FLUSH_ERR));
        assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR,
                CompletionMapping.status(RdmaConstants.IBV_WC_REM_ACCESS_ERR));
        assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR,
                CompletionMapping.status(RdmaConstants.IBV_WC_REM_INV_RD_REQ_ERR));
        for (int remoteOperation : new int[] {RdmaConstants.IBV_WC_REM_OP_ERR, RdmaConstants.IBV_WC_REM_INV_REQ_ERR,
                RdmaConstants.IBV_WC_REM_ABORT_ERR, RdmaConstants.IBV_WC_BAD_RESP_ERR}) {
            assertEquals(CompletionStatus.REMOTE_OPERATION_ERROR, CompletionMapping.status(remoteOperation),
                    "ibv_wc_status " + remoteOperation);
        }
        for (int local : new int[] {RdmaConstants.IBV_WC_LOC_QP_OP_ERR, RdmaConstants.IBV_WC_RETRY_EXC_ERR,
                RdmaConstants.IBV_WC_FATAL_ERR, RdmaConstants.IBV_WC_GENERAL_ERR}) {
            assertEquals(CompletionStatus.LOCAL_OPERATION_ERROR, CompletionMapping.status(local),
                    "ibv_wc_status " + local);
        }
    }

    @Test
    void aFlushIsClosedAfterTheApplicationsCloseAndALossOtherwise() {
        assertEquals(CompletionCause.NONE, CompletionMapping.cause(CompletionStatus.SUCCESS, false));
        assertEquals(CompletionCause.CLOSED, CompletionMapping.cause(CompletionStatus.FLUSHED, true));
        assertEquals(CompletionCause.CONNECTION_LOST, CompletionMapping.cause(CompletionStatus.FLUSHED, false));
        assertEquals(CompletionCause.CONNECTION_LOST,
                CompletionMapping.cause(CompletionStatus.REMOTE_ACCESS_ERROR, false));
        assertEquals(CompletionCause.LOCAL_CHECK, CompletionMapping.cause(CompletionStatus.LOCAL_LENGTH_ERROR, false));
    }

    @Test
    void aRemoteWriteRightCarriesTheLocalWriteVerbsAsksWithIt() {
        assertEquals(0, CompletionMapping.accessFlags(Set.of()));
        assertEquals(RdmaConstants.IBV_ACCESS_LOCAL_WRITE, CompletionMapping.accessFlags(Set.of(Access.LOCAL_WRITE)));
        assertEquals(RdmaConstants.IBV_ACCESS_REMOTE_READ, CompletionMapping.accessFlags(Set.of(Access.REMOTE_READ)));
        assertEquals(RdmaConstants.IBV_ACCESS_REMOTE_WRITE | RdmaConstants.IBV_ACCESS_LOCAL_WRITE,
                CompletionMapping.accessFlags(Set.of(Access.REMOTE_WRITE)));
        assertEquals(7, CompletionMapping.accessFlags(EnumSet.allOf(Access.class)));
    }
}
