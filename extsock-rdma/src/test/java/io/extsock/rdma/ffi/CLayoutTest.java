package io.extsock.rdma.ffi;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import org.junit.jupiter.api.Test;

/** C's padding rules, as the struct helpers apply them. */
class CLayoutTest {

    @Test
    void eachMemberStartsAtAMultipleOfItsAlignment() {
        MemoryLayout struct = CLayout.struct("s", JAVA_BYTE.withName("a"), JAVA_LONG.withName("b"),
                JAVA_SHORT.withName("c"), JAVA_INT.withName("d"));
        assertEquals(0, struct.byteOffset(PathElement.groupElement("a")));
        assertEquals(8, struct.byteOffset(PathElement.groupElement("b")));
        assertEquals(16, struct.byteOffset(PathElement.groupElement("c")));
        assertEquals(20, struct.byteOffset(PathElement.groupElement("d")));
        assertEquals(24, struct.byteSize());
    }

    @Test
    void aWholeStructEndsAtAMultipleOfItsWidestAlignmentAndAPrefixDoesNot() {
        MemoryLayout[] members = {JAVA_LONG.withName("a"), JAVA_INT.withName("b")};
        assertEquals(16, CLayout.struct("s", members).byteSize());
        assertEquals(12, CLayout.prefix("s", members).byteSize());
    }

    @Test
    void aUnionIsItsWidestMemberPaddedToItsAlignment() {
        MemoryLayout rdma = CLayout.struct("rdma", JAVA_LONG.withName("remote_addr"), JAVA_INT.withName("rkey"));
        MemoryLayout union = CLayout.union("u", rdma, JAVA_INT.withName("x"), JAVA_BYTE.withName("y"));
        assertEquals(16, union.byteSize());
        assertEquals(8, union.byteAlignment());
        MemoryLayout odd = CLayout.union("v", MemoryLayout.sequenceLayout(5, JAVA_BYTE).withName("raw"),
                JAVA_SHORT.withName("s"));
        assertEquals(6, odd.byteSize());
    }
}
