package io.extsock.rdma.ffi;

import java.util.Map;

/**
 * The enum values and flags of rdma-core's headers that the binding passes or reads, with the
 * C library's few it needs; next to {@link RdmaStructs} and checked by the same interop test
 * against the installed headers. Names are the headers' own.
 */
public final class RdmaConstants {

    // enum ibv_qp_type (verbs.h)
    public static final int IBV_QPT_RC = 2;

    // enum ibv_wr_opcode (verbs.h)
    public static final int IBV_WR_RDMA_WRITE = 0;
    public static final int IBV_WR_SEND = 2;
    public static final int IBV_WR_RDMA_READ = 4;

    // enum ibv_send_flags (verbs.h)
    public static final int IBV_SEND_FENCE = 1;
    public static final int IBV_SEND_SIGNALED = 1 << 1;
    public static final int IBV_SEND_SOLICITED = 1 << 2;

    // enum ibv_access_flags (verbs.h)
    public static final int IBV_ACCESS_LOCAL_WRITE = 1;
    public static final int IBV_ACCESS_REMOTE_WRITE = 1 << 1;
    public static final int IBV_ACCESS_REMOTE_READ = 1 << 2;

    // enum ibv_wc_status (verbs.h): 0 is success, the rest are the error causes.
    public static final int IBV_WC_SUCCESS = 0;
    public static final int IBV_WC_WR_FLUSH_ERR = 5;
    public static final int IBV_WC_LOC_LEN_ERR = 1;
    public static final int IBV_WC_LOC_QP_OP_ERR = 2;
    public static final int IBV_WC_LOC_PROT_ERR = 4;
    public static final int IBV_WC_BAD_RESP_ERR = 7;
    public static final int IBV_WC_LOC_ACCESS_ERR = 8;
    public static final int IBV_WC_REM_INV_REQ_ERR = 9;
    public static final int IBV_WC_REM_ACCESS_ERR = 10;
    public static final int IBV_WC_REM_OP_ERR = 11;
    public static final int IBV_WC_RETRY_EXC_ERR = 12;
    public static final int IBV_WC_REM_INV_RD_REQ_ERR = 15;
    public static final int IBV_WC_REM_ABORT_ERR = 16;
    public static final int IBV_WC_FATAL_ERR = 19;
    public static final int IBV_WC_GENERAL_ERR = 21;

    // enum ibv_wc_opcode (verbs.h)
    public static final int IBV_WC_SEND = 0;
    public static final int IBV_WC_RDMA_WRITE = 1;
    public static final int IBV_WC_RDMA_READ = 2;
    public static final int IBV_WC_RECV = 1 << 7;

    // enum rdma_port_space (rdma_cma.h): connections over TCP, as iWARP's are
    public static final int RDMA_PS_TCP = 0x0106;

    // enum rdma_cm_event_type (rdma_cma.h)
    public static final int RDMA_CM_EVENT_ADDR_RESOLVED = 0;
    public static final int RDMA_CM_EVENT_ADDR_ERROR = 1;
    public static final int RDMA_CM_EVENT_ROUTE_RESOLVED = 2;
    public static final int RDMA_CM_EVENT_ROUTE_ERROR = 3;
    public static final int RDMA_CM_EVENT_CONNECT_REQUEST = 4;
    public static final int RDMA_CM_EVENT_CONNECT_RESPONSE = 5;
    public static final int RDMA_CM_EVENT_CONNECT_ERROR = 6;
    public static final int RDMA_CM_EVENT_UNREACHABLE = 7;
    public static final int RDMA_CM_EVENT_REJECTED = 8;
    public static final int RDMA_CM_EVENT_ESTABLISHED = 9;
    public static final int RDMA_CM_EVENT_DISCONNECTED = 10;
    public static final int RDMA_CM_EVENT_DEVICE_REMOVAL = 11;
    public static final int RDMA_CM_EVENT_TIMEWAIT_EXIT = 15;

    // <poll.h>, <sys/eventfd.h>, <fcntl.h>, <sys/resource.h>, <errno.h>, <sys/socket.h>
    public static final short POLLIN = 0x1;
    public static final int EFD_CLOEXEC = 02000000;
    public static final int EFD_NONBLOCK = 04000;
    public static final int F_GETFL = 3;
    public static final int F_SETFL = 4;
    public static final int O_NONBLOCK = 04000;
    public static final int RLIMIT_MEMLOCK = 8;
    public static final int EPERM = 1;
    public static final int EINTR = 4;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int ENODEV = 19;
    public static final int ENOSYS = 38;
    public static final int AF_INET = 2;
    public static final int AF_INET6 = 10;

    /** Every constant above by its C name, for the test that checks them against the installed headers. */
    public static final Map<String, Long> ALL = Map.ofEntries(
            Map.entry("IBV_QPT_RC", (long) IBV_QPT_RC),
            Map.entry("IBV_WR_RDMA_WRITE", (long) IBV_WR_RDMA_WRITE),
            Map.entry("IBV_WR_SEND", (long) IBV_WR_SEND),
            Map.entry("IBV_WR_RDMA_READ", (long) IBV_WR_RDMA_READ),
            Map.entry("IBV_SEND_FENCE", (long) IBV_SEND_FENCE),
            Map.entry("IBV_SEND_SIGNALED", (long) IBV_SEND_SIGNALED),
            Map.entry("IBV_SEND_SOLICITED", (long) IBV_SEND_SOLICITED),
            Map.entry("IBV_ACCESS_LOCAL_WRITE", (long) IBV_ACCESS_LOCAL_WRITE),
            Map.entry("IBV_ACCESS_REMOTE_WRITE", (long) IBV_ACCESS_REMOTE_WRITE),
            Map.entry("IBV_ACCESS_REMOTE_READ", (long) IBV_ACCESS_REMOTE_READ),
            Map.entry("IBV_WC_SUCCESS", (long) IBV_WC_SUCCESS),
            Map.entry("IBV_WC_WR_FLUSH_ERR", (long) IBV_WC_WR_FLUSH_ERR),
            Map.entry("IBV_WC_LOC_LEN_ERR", (long) IBV_WC_LOC_LEN_ERR),
            Map.entry("IBV_WC_LOC_QP_OP_ERR", (long) IBV_WC_LOC_QP_OP_ERR),
            Map.entry("IBV_WC_LOC_PROT_ERR", (long) IBV_WC_LOC_PROT_ERR),
            Map.entry("IBV_WC_BAD_RESP_ERR", (long) IBV_WC_BAD_RESP_ERR),
            Map.entry("IBV_WC_LOC_ACCESS_ERR", (long) IBV_WC_LOC_ACCESS_ERR),
            Map.entry("IBV_WC_REM_INV_REQ_ERR", (long) IBV_WC_REM_INV_REQ_ERR),
            Map.entry("IBV_WC_REM_ACCESS_ERR", (long) IBV_WC_REM_ACCESS_ERR),
            Map.entry("IBV_WC_REM_OP_ERR", (long) IBV_WC_REM_OP_ERR),
            Map.entry("IBV_WC_RETRY_EXC_ERR", (long) IBV_WC_RETRY_EXC_ERR),
            Map.entry("IBV_WC_REM_INV_RD_REQ_ERR", (long) IBV_WC_REM_INV_RD_REQ_ERR),
            Map.entry("IBV_WC_REM_ABORT_ERR", (long) IBV_WC_REM_ABORT_ERR),
            Map.entry("IBV_WC_FATAL_ERR", (long) IBV_WC_FATAL_ERR),
            Map.entry("IBV_WC_GENERAL_ERR", (long) IBV_WC_GENERAL_ERR),
            Map.entry("IBV_WC_SEND", (long) IBV_WC_SEND),
            Map.entry("IBV_WC_RDMA_WRITE", (long) IBV_WC_RDMA_WRITE),
            Map.entry("IBV_WC_RDMA_READ", (long) IBV_WC_RDMA_READ),
            Map.entry("IBV_WC_RECV", (long) IBV_WC_RECV),
            Map.entry("RDMA_PS_TCP", (long) RDMA_PS_TCP),
            Map.entry("RDMA_CM_EVENT_ADDR_RESOLVED", (long) RDMA_CM_EVENT_ADDR_RESOLVED),
            Map.entry("RDMA_CM_EVENT_ADDR_ERROR", (long) RDMA_CM_EVENT_ADDR_ERROR),
            Map.entry("RDMA_CM_EVENT_ROUTE_RESOLVED", (long) RDMA_CM_EVENT_ROUTE_RESOLVED),
            Map.entry("RDMA_CM_EVENT_ROUTE_ERROR", (long) RDMA_CM_EVENT_ROUTE_ERROR),
            Map.entry("RDMA_CM_EVENT_CONNECT_REQUEST", (long) RDMA_CM_EVENT_CONNECT_REQUEST),
            Map.entry("RDMA_CM_EVENT_CONNECT_RESPONSE", (long) RDMA_CM_EVENT_CONNECT_RESPONSE),
            Map.entry("RDMA_CM_EVENT_CONNECT_ERROR", (long) RDMA_CM_EVENT_CONNECT_ERROR),
            Map.entry("RDMA_CM_EVENT_UNREACHABLE", (long) RDMA_CM_EVENT_UNREACHABLE),
            Map.entry("RDMA_CM_EVENT_REJECTED", (long) RDMA_CM_EVENT_REJECTED),
            Map.entry("RDMA_CM_EVENT_ESTABLISHED", (long) RDMA_CM_EVENT_ESTABLISHED),
            Map.entry("RDMA_CM_EVENT_DISCONNECTED", (long) RDMA_CM_EVENT_DISCONNECTED),
            Map.entry("RDMA_CM_EVENT_DEVICE_REMOVAL", (long) RDMA_CM_EVENT_DEVICE_REMOVAL),
            Map.entry("RDMA_CM_EVENT_TIMEWAIT_EXIT", (long) RDMA_CM_EVENT_TIMEWAIT_EXIT),
            Map.entry("POLLIN", (long) POLLIN),
            Map.entry("EFD_CLOEXEC", (long) EFD_CLOEXEC),
            Map.entry("EFD_NONBLOCK", (long) EFD_NONBLOCK),
            Map.entry("F_GETFL", (long) F_GETFL),
            Map.entry("F_SETFL", (long) F_SETFL),
            Map.entry("O_NONBLOCK", (long) O_NONBLOCK),
            Map.entry("RLIMIT_MEMLOCK", (long) RLIMIT_MEMLOCK),
            Map.entry("EPERM", (long) EPERM),
            Map.entry("EINTR", (long) EINTR),
            Map.entry("EAGAIN", (long) EAGAIN),
            Map.entry("ENOMEM", (long) ENOMEM),
            Map.entry("ENODEV", (long) ENODEV),
            Map.entry("ENOSYS", (long) ENOSYS),
            Map.entry("AF_INET", (long) AF_INET),
            Map.entry("AF_INET6", (long) AF_INET6));

    private RdmaConstants() {
    }
}
