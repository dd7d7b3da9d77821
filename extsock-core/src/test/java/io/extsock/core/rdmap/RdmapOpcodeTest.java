package io.extsock.core.rdmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class RdmapOpcodeTest {

    /** RFC 5040 section 4.1 Figure 4 and RFC 7306 section 4.1 Figure 2: opcode, T bit, queue. */
    private static final Object[][] USAGE_OF_DDP_FIELDS = {
        {0x0, RdmapOpcode.RDMA_WRITE, true, -1},
        {0x1, RdmapOpcode.RDMA_READ_REQUEST, false, 1},
        {0x2, RdmapOpcode.RDMA_READ_RESPONSE, true, -1},
        {0x3, RdmapOpcode.SEND, false, 0},
        {0x4, RdmapOpcode.SEND_WITH_INVALIDATE, false, 0},
        {0x5, RdmapOpcode.SEND_WITH_SOLICITED_EVENT, false, 0},
        {0x6, RdmapOpcode.SEND_WITH_SOLICITED_EVENT_AND_INVALIDATE, false, 0},
        {0x7, RdmapOpcode.TERMINATE, false, 2},
        {0x8, RdmapOpcode.IMMEDIATE_DATA, false, 0},
        {0x9, RdmapOpcode.IMMEDIATE_DATA_WITH_SOLICITED_EVENT, false, 0},
        {0xA, RdmapOpcode.ATOMIC_REQUEST, false, 1},
        {0xB, RdmapOpcode.ATOMIC_RESPONSE, false, 3},
    };

    @Test
    void everyOpcodeTravelsAsFigure4Says_rfc5040_4_1_rfc7306_4_1() {
        for (Object[] row : USAGE_OF_DDP_FIELDS) {
            RdmapOpcode opcode = RdmapOpcode.fromWire((int) row[0]);
            assertSame(row[1], opcode);
            assertEquals((int) row[0], opcode.wireValue());
            assertEquals(row[2], opcode.tagged(), opcode.name());
            assertEquals(row[3], opcode.queueNumber(), opcode.name());
        }
        assertEquals(USAGE_OF_DDP_FIELDS.length, RdmapOpcode.values().length);
    }

    @ParameterizedTest
    @ValueSource(ints = {0xC, 0xD, 0xE, 0xF, -1, 16})
    void unassignedAndExperimentalValuesNameNoOpcode_rfc6580_3_4(int value) {
        assertNull(RdmapOpcode.fromWire(value));
    }

    @Test
    void onlyRfc5040sOpcodesAreSupported() {
        EnumSet<RdmapOpcode> supported = EnumSet.noneOf(RdmapOpcode.class);
        for (RdmapOpcode opcode : RdmapOpcode.values()) {
            if (opcode.supported()) {
                supported.add(opcode);
            }
        }
        assertEquals(EnumSet.range(RdmapOpcode.RDMA_WRITE, RdmapOpcode.TERMINATE), supported);
    }

    @Test
    void invalidateAndSolicitedEventVariants_rfc5040_4_1() {
        assertEquals(EnumSet.of(RdmapOpcode.SEND_WITH_INVALIDATE, RdmapOpcode.SEND_WITH_SOLICITED_EVENT_AND_INVALIDATE),
                collect(RdmapOpcode::invalidatesStag));
        assertEquals(EnumSet.of(RdmapOpcode.SEND_WITH_SOLICITED_EVENT,
                RdmapOpcode.SEND_WITH_SOLICITED_EVENT_AND_INVALIDATE,
                RdmapOpcode.IMMEDIATE_DATA_WITH_SOLICITED_EVENT), collect(RdmapOpcode::solicitedEvent));
        assertEquals(EnumSet.range(RdmapOpcode.SEND, RdmapOpcode.SEND_WITH_SOLICITED_EVENT_AND_INVALIDATE),
                collect(RdmapOpcode::isSend));
    }

    @ParameterizedTest
    @EnumSource(RdmapOpcode.class)
    void controlFieldIsVersionOneAndTheOpcode_rfc5040_4_1(RdmapOpcode opcode) {
        int control = RdmapConstants.controlField(opcode);
        assertEquals(0x40 | opcode.wireValue(), control);
        assertTrue(control < 0x100);
        assertFalse((control & RdmapConstants.RESERVED_BITS) != 0);
    }

    private static EnumSet<RdmapOpcode> collect(java.util.function.Predicate<RdmapOpcode> property) {
        EnumSet<RdmapOpcode> set = EnumSet.noneOf(RdmapOpcode.class);
        for (RdmapOpcode opcode : RdmapOpcode.values()) {
            if (property.test(opcode)) {
                set.add(opcode);
            }
        }
        return set;
    }
}
