package io.extsock.rdma.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The struct descriptions' own consistency, and anchors counted by hand from the LP64 headers
 * (the interop test checks every member against the installed headers).
 */
class RdmaStructsTest {

    @Test
    void theDataPathOpsSitWhereCountingStructIbvContextOpsPutsThem() {
        // ops follows the one device pointer; each entry is one pointer.
        assertEquals(8, RdmaStructs.IBV_CONTEXT.offset("ops"));
        assertEquals(8 + 11 * 8, RdmaStructs.IBV_CONTEXT.offset("ops", "poll_cq"));
        assertEquals(8 + 12 * 8, RdmaStructs.IBV_CONTEXT.offset("ops", "req_notify_cq"));
        assertEquals(8 + 25 * 8, RdmaStructs.IBV_CONTEXT.offset("ops", "post_send"));
        assertEquals(8 + 26 * 8, RdmaStructs.IBV_CONTEXT.offset("ops", "post_recv"));
        assertEquals(32 * 8, RdmaStructs.IBV_CONTEXT_OPS.size());
        assertEquals(0, RdmaStructs.IBV_QP.offset("context"));
        assertEquals(0, RdmaStructs.IBV_CQ.offset("context"));
    }

    @Test
    void anonymousUnionMembersAreReachedByTheirOwnNamesAsInC() {
        assertEquals(36, RdmaStructs.IBV_SEND_WR.offset("imm_data"));
        assertEquals(36, RdmaStructs.IBV_SEND_WR.offset("invalidate_rkey"));
        assertEquals(40, RdmaStructs.IBV_SEND_WR.offset("wr", "rdma", "remote_addr"));
        assertEquals(48, RdmaStructs.IBV_SEND_WR.offset("wr", "rdma", "rkey"));
        assertEquals(24, RdmaStructs.IBV_WC.offset("imm_data"));
        assertEquals(128, RdmaStructs.IBV_SEND_WR.size());
        assertEquals(48, RdmaStructs.IBV_WC.size());
    }

    @Test
    void membersAreListedOnceEachWithDesignatorsCanTake() {
        for (RdmaStructs.Struct struct : RdmaStructs.ALL) {
            List<RdmaStructs.Struct.Member> members = struct.members();
            Set<String> seen = new HashSet<>();
            for (RdmaStructs.Struct.Member member : members) {
                assertTrue(seen.add(member.designator()), struct.name() + " lists " + member.designator() + " twice");
                assertTrue(member.designator().matches("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*"),
                        member.designator());
                assertTrue(member.offset() + member.layout().byteSize() <= struct.layout().byteSize(),
                        struct.name() + "." + member.designator() + " ends past the struct");
            }
            assertTrue(!members.isEmpty(), struct.name());
        }
    }

    @Test
    void anUnknownMemberOrThePrefixOfALibraryStructHasNoAnswer() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> RdmaStructs.IBV_WC.offset("no_such_member"));
        assertEquals("struct ibv_wc has no member no_such_member", unknown.getMessage());
        IllegalStateException prefix = assertThrows(IllegalStateException.class, RdmaStructs.IBV_QP::size);
        assertTrue(prefix.getMessage().contains("ibv_qp"), prefix.getMessage());
    }
}
