package io.extsock.rdma.ffi;

import static io.extsock.rdma.ffi.CLayout.anonymousUnion;
import static io.extsock.rdma.ffi.CLayout.prefix;
import static io.extsock.rdma.ffi.CLayout.struct;
import static io.extsock.rdma.ffi.CLayout.union;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.UnionLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Every C struct the binding reads or writes, in one place, member by member as its header
 * declares it. The source is rdma-core's {@code libibverbs/verbs.h} and {@code
 * librdmacm/rdma_cma.h} (read at rdma-core 64.0; these structs are part of the libraries'
 * public ABI, symbol versions IBVERBS_1.1 and RDMACM_1.0, which rdma-core keeps compatible),
 * with {@code <poll.h>} and {@code <sys/resource.h>} from the C library, for the LP64 ABIs of
 * Linux. The interop test {@code RdmaStructsIT} compiles a C program against the installed
 * headers and checks every offset and size below against {@code offsetof} and {@code sizeof}.
 *
 * <p>Member names are the headers' own, so that a path here is the designator C's {@code
 * offsetof} takes ({@code ops.post_send}, {@code wr.rdma.rkey}); anonymous unions are unnamed
 * here as there. Structs the library allocates are {@linkplain Struct#whole() prefixes}: only
 * the members before their pthread mutex, whose size differs between architectures.
 */
public final class RdmaStructs {

    /** One C struct: its name in the header, its layout, and whether the layout covers all of it. */
    public record Struct(String name, MemoryLayout layout, boolean whole) {

        /** A named member at any depth: its C designator ({@code wr.rdma.rkey}), offset and layout. */
        public record Member(String designator, long offset, MemoryLayout layout) {
        }

        /**
         * The offset of a member.
         *
         * @param path member names, outermost first, as in C's designator {@code a.b.c};
         *             anonymous unions are passed through as C passes through them
         * @return the member's offset from the start of the struct, in bytes
         * @throws IllegalArgumentException if the struct has no such member
         */
        public long offset(String... path) {
            String designator = String.join(".", path);
            for (Member member : members()) {
                if (member.designator().equals(designator)) {
                    return member.offset();
                }
            }
            throw new IllegalArgumentException("struct " + name + " has no member " + designator);
        }

        /** @return the struct's size in bytes, for a struct this binding allocates */
        public long size() {
            if (!whole) {
                throw new IllegalStateException("struct " + name + " is described only up to its pthread members");
            }
            return layout.byteSize();
        }

        /** @return every named member, nested ones included, in declaration order */
        public List<Member> members() {
            List<Member> members = new ArrayList<>();
            collect((GroupLayout) layout, "", 0, members);
            return members;
        }

        private static void collect(GroupLayout group, String prefix, long base, List<Member> into) {
            long offset = base;
            for (MemoryLayout member : group.memberLayouts()) {
                boolean union = group instanceof UnionLayout;
                long at = union ? base : offset;
                if (!(member instanceof PaddingLayout)) {
                    String inner = prefix;
                    if (member.name().isPresent()) {
                        inner = prefix + member.name().get();
                        into.add(new Member(inner, at, member));
                        inner += ".";
                    }
                    if (member instanceof GroupLayout nested) {
                        collect(nested, inner, at, into);
                    }
                }
                offset = union ? offset : offset + member.byteSize();
            }
        }
    }

    private static final MemoryLayout U8 = JAVA_BYTE;
    private static final MemoryLayout U16 = JAVA_SHORT;
    private static final MemoryLayout U32 = JAVA_INT;
    private static final MemoryLayout U64 = JAVA_LONG;
    private static final MemoryLayout POINTER = ADDRESS;

    private static MemoryLayout u8(String name) {
        return U8.withName(name);
    }

    private static MemoryLayout u16(String name) {
        return U16.withName(name);
    }

    /** int, unsigned int, uint32_t, __be32 and every enum (all four octets on these ABIs). */
    private static MemoryLayout u32(String name) {
        return U32.withName(name);
    }

    /** uint64_t, size_t. */
    private static MemoryLayout u64(String name) {
        return U64.withName(name);
    }

    private static MemoryLayout pointer(String name) {
        return POINTER.withName(name);
    }

    private static MemoryLayout chars(String name, int length) {
        return MemoryLayout.sequenceLayout(length, U8).withName(name);
    }

    /** The verbs a provider library implements, in declaration order (verbs.h, {@code struct ibv_context_ops}). */
    private static final List<String> CONTEXT_OPS = List.of(
            "_compat_query_device", "_compat_query_port", "_compat_alloc_pd", "_compat_dealloc_pd",
            "_compat_reg_mr", "_compat_rereg_mr", "_compat_dereg_mr", "alloc_mw", "bind_mw", "dealloc_mw",
            "_compat_create_cq", "poll_cq", "req_notify_cq", "_compat_cq_event", "_compat_resize_cq",
            "_compat_destroy_cq", "_compat_create_srq", "_compat_modify_srq", "_compat_query_srq",
            "_compat_destroy_srq", "post_srq_recv", "_compat_create_qp", "_compat_query_qp", "_compat_modify_qp",
            "_compat_destroy_qp", "post_send", "post_recv", "_compat_create_ah", "_compat_destroy_ah",
            "_compat_attach_mcast", "_compat_detach_mcast", "_compat_async_event");

    /** {@code struct ibv_context_ops}: the provider's entry points, which the static inline verbs call. */
    public static final Struct IBV_CONTEXT_OPS = new Struct("ibv_context_ops",
            struct("ibv_context_ops", CONTEXT_OPS.stream().map(RdmaStructs::pointer).toArray(MemoryLayout[]::new)),
            true);

    /** {@code struct ibv_context}: an open device. */
    public static final Struct IBV_CONTEXT = new Struct("ibv_context", prefix("ibv_context",
            pointer("device"),
            IBV_CONTEXT_OPS.layout().withName("ops"),
            u32("cmd_fd"),
            u32("async_fd"),
            u32("num_comp_vectors")), false);

    /** {@code struct ibv_device}: an entry of {@code ibv_get_device_list}. */
    public static final Struct IBV_DEVICE = new Struct("ibv_device", struct("ibv_device",
            struct("_ops", pointer("_dummy1"), pointer("_dummy2")),
            u32("node_type"),
            u32("transport_type"),
            chars("name", 64),
            chars("dev_name", 64),
            chars("dev_path", 256),
            chars("ibdev_path", 256)), true);

    /** {@code struct ibv_pd}. */
    public static final Struct IBV_PD = new Struct("ibv_pd", struct("ibv_pd",
            pointer("context"),
            u32("handle")), true);

    /** {@code struct ibv_comp_channel}: where a CQ's completion events arrive. */
    public static final Struct IBV_COMP_CHANNEL = new Struct("ibv_comp_channel", struct("ibv_comp_channel",
            pointer("context"),
            u32("fd"),
            u32("refcnt")), true);

    /** {@code struct ibv_cq}. */
    public static final Struct IBV_CQ = new Struct("ibv_cq", prefix("ibv_cq",
            pointer("context"),
            pointer("channel"),
            pointer("cq_context"),
            u32("handle"),
            u32("cqe")), false);

    /** {@code struct ibv_qp}. */
    public static final Struct IBV_QP = new Struct("ibv_qp", prefix("ibv_qp",
            pointer("context"),
            pointer("qp_context"),
            pointer("pd"),
            pointer("send_cq"),
            pointer("recv_cq"),
            pointer("srq"),
            u32("handle"),
            u32("qp_num"),
            u32("state"),
            u32("qp_type")), false);

    /** {@code struct ibv_qp_cap}. */
    public static final Struct IBV_QP_CAP = new Struct("ibv_qp_cap", struct("ibv_qp_cap",
            u32("max_send_wr"),
            u32("max_recv_wr"),
            u32("max_send_sge"),
            u32("max_recv_sge"),
            u32("max_inline_data")), true);

    /** {@code struct ibv_qp_init_attr}: what {@code rdma_create_qp} is asked for, and what it granted. */
    public static final Struct IBV_QP_INIT_ATTR = new Struct("ibv_qp_init_attr", struct("ibv_qp_init_attr",
            pointer("qp_context"),
            pointer("send_cq"),
            pointer("recv_cq"),
            pointer("srq"),
            IBV_QP_CAP.layout().withName("cap"),
            u32("qp_type"),
            u32("sq_sig_all")), true);

    /** {@code struct ibv_mr}: a registered memory region. */
    public static final Struct IBV_MR = new Struct("ibv_mr", struct("ibv_mr",
            pointer("context"),
            pointer("pd"),
            pointer("addr"),
            u64("length"),
            u32("handle"),
            u32("lkey"),
            u32("rkey")), true);

    /** {@code struct ibv_sge}: one piece of a work request's buffer. */
    public static final Struct IBV_SGE = new Struct("ibv_sge", struct("ibv_sge",
            u64("addr"),
            u32("length"),
            u32("lkey")), true);

    /** {@code struct ibv_send_wr}. */
    public static final Struct IBV_SEND_WR = new Struct("ibv_send_wr", struct("ibv_send_wr",
            u64("wr_id"),
            pointer("next"),
            pointer("sg_list"),
            u32("num_sge"),
            u32("opcode"),
            u32("send_flags"),
            anonymousUnion(u32("imm_data"), u32("invalidate_rkey")),
            union("wr",
                    struct("rdma", u64("remote_addr"), u32("rkey")),
                    struct("atomic", u64("remote_addr"), u64("compare_add"), u64("swap"), u32("rkey")),
                    struct("ud", pointer("ah"), u32("remote_qpn"), u32("remote_qkey"))),
            union("qp_type", struct("xrc", u32("remote_srqn"))),
            anonymousUnion(
                    struct("bind_mw", pointer("mw"), u32("rkey"), struct("bind_info",
                            pointer("mr"), u64("addr"), u64("length"), u32("mw_access_flags"))),
                    struct("tso", pointer("hdr"), u16("hdr_sz"), u16("mss")))), true);

    /** {@code struct ibv_recv_wr}. */
    public static final Struct IBV_RECV_WR = new Struct("ibv_recv_wr", struct("ibv_recv_wr",
            u64("wr_id"),
            pointer("next"),
            pointer("sg_list"),
            u32("num_sge")), true);

    /** {@code struct ibv_wc}: a work completion, as {@code poll_cq} fills an array of them. */
    public static final Struct IBV_WC = new Struct("ibv_wc", struct("ibv_wc",
            u64("wr_id"),
            u32("status"),
            u32("opcode"),
            u32("vendor_err"),
            u32("byte_len"),
            anonymousUnion(u32("imm_data"), u32("invalidated_rkey")),
            u32("qp_num"),
            u32("src_qp"),
            u32("wc_flags"),
            u16("pkey_index"),
            u16("slid"),
            u8("sl"),
            u8("dlid_path_bits")), true);

    /** {@code struct rdma_event_channel}. */
    public static final Struct RDMA_EVENT_CHANNEL = new Struct("rdma_event_channel", struct("rdma_event_channel",
            u32("fd")), true);

    private static final MemoryLayout SOCKADDR_STORAGE = struct("sockaddr_storage",
            u16("ss_family"), MemoryLayout.paddingLayout(118), u64("__ss_align"));

    private static MemoryLayout ibGid(String name) {
        return union(name, chars("raw", 16), struct("global", u64("subnet_prefix"), u64("interface_id")));
    }

    /** {@code struct rdma_cm_id}: a connection's or a listener's identifier. */
    public static final Struct RDMA_CM_ID = new Struct("rdma_cm_id", struct("rdma_cm_id",
            pointer("verbs"),
            pointer("channel"),
            pointer("context"),
            pointer("qp"),
            struct("route",
                    struct("addr",
                            anonymousUnion(SOCKADDR_STORAGE.withName("src_storage")),
                            anonymousUnion(SOCKADDR_STORAGE.withName("dst_storage")),
                            union("addr", struct("ibaddr", ibGid("sgid"), ibGid("dgid"), u16("pkey")))),
                    pointer("path_rec"),
                    u32("num_paths")),
            u32("ps"),
            u8("port_num"),
            pointer("event"),
            pointer("send_cq_channel"),
            pointer("send_cq"),
            pointer("recv_cq_channel"),
            pointer("recv_cq"),
            pointer("srq"),
            pointer("pd"),
            u32("qp_type")), true);

    /** {@code struct rdma_conn_param}: private data and the IRD/ORD a connect or accept offers. */
    public static final Struct RDMA_CONN_PARAM = new Struct("rdma_conn_param", struct("rdma_conn_param",
            pointer("private_data"),
            u8("private_data_len"),
            u8("responder_resources"),
            u8("initiator_depth"),
            u8("flow_control"),
            u8("retry_count"),
            u8("rnr_retry_count"),
            u8("srq"),
            u32("qp_num")), true);

    /** {@code struct rdma_cm_event}, up to the connection parameters of its {@code param} union. */
    public static final Struct RDMA_CM_EVENT = new Struct("rdma_cm_event", prefix("rdma_cm_event",
            pointer("id"),
            pointer("listen_id"),
            u32("event"),
            u32("status"),
            prefix("param", RDMA_CONN_PARAM.layout().withName("conn"))), false);

    /** {@code struct pollfd} ({@code <poll.h>}): the event thread's wait. */
    public static final Struct POLLFD = new Struct("pollfd", struct("pollfd",
            u32("fd"),
            u16("events"),
            u16("revents")), true);

    /** {@code struct rlimit} ({@code <sys/resource.h>}): for RLIMIT_MEMLOCK in registration errors. */
    public static final Struct RLIMIT = new Struct("rlimit", struct("rlimit",
            u64("rlim_cur"),
            u64("rlim_max")), true);

    /** Every struct above, for the test that checks them against the installed headers. */
    public static final List<Struct> ALL = List.of(IBV_CONTEXT_OPS, IBV_CONTEXT, IBV_DEVICE, IBV_PD,
            IBV_COMP_CHANNEL, IBV_CQ, IBV_QP, IBV_QP_CAP, IBV_QP_INIT_ATTR, IBV_MR, IBV_SGE, IBV_SEND_WR,
            IBV_RECV_WR, IBV_WC, RDMA_EVENT_CHANNEL, RDMA_CM_ID, RDMA_CONN_PARAM, RDMA_CM_EVENT, POLLFD, RLIMIT);

    private RdmaStructs() {
    }
}
